import { afterEach, beforeEach, vi } from 'vitest'
import { observeLogs } from '../../app/log/logger.server'

/**
 * An unexpected error log fails the test that caused it (docs/testing.md): a line the store's
 * logger writes at error level or above, or a console.error from anywhere.
 * A test that expects one says which: `expectErrorLog(/Provider not found/)`;
 * then at least one must be logged, and every one logged must match.
 */
let expected: RegExp | null = null
let calls: string[] = []
let stopObserving: () => void = () => undefined

/** pino's error level; fatal is above it. */
const ERROR_LEVEL = 50

beforeEach(() => {
	expected = null
	calls = []
	vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
		calls.push(args.map(String).join(' '))
	})
	stopObserving = observeLogs((line) => {
		const record = JSON.parse(line) as { level: number }
		if (record.level >= ERROR_LEVEL) calls.push(line)
	})
})

afterEach(() => {
	vi.mocked(console.error).mockRestore()
	stopObserving()
	const pattern = expected
	if (pattern && calls.length === 0) throw new Error(`Expected an error log matching ${pattern}`)
	const unexpected = calls.filter((line) => !pattern?.test(line))
	if (unexpected.length > 0) throw new Error(`Unexpected error log:\n${unexpected.join('\n')}`)
})

export function expectErrorLog(pattern: RegExp) {
	expected = pattern
}
