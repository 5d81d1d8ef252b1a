import { afterEach, beforeEach, vi } from 'vitest'

/**
 * An unexpected console.error fails the test that caused it (STYLE.md).
 * A test that expects one says which: `expectConsoleError(/Provider not found/)`;
 * then at least one must be logged, and every one logged must match.
 */
let expected: RegExp | null = null
let calls: string[] = []

beforeEach(() => {
	expected = null
	calls = []
	vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
		calls.push(args.map(String).join(' '))
	})
})

afterEach(() => {
	vi.mocked(console.error).mockRestore()
	const pattern = expected
	if (pattern && calls.length === 0) throw new Error(`Expected a console.error matching ${pattern}`)
	const unexpected = calls.filter((line) => !pattern?.test(line))
	if (unexpected.length > 0) throw new Error(`Unexpected console.error:\n${unexpected.join('\n')}`)
})

export function expectConsoleError(pattern: RegExp) {
	expected = pattern
}
