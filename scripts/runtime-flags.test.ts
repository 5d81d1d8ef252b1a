import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Issue 11.3: a runtime flag that is part of the memory answer is the same for `npm start`,
// the Dockerfile and fly.toml (docs/decisions/028-performance-budget.md).
describe('the V8 heap flags (issue 11.3)', () => {
	const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
	const flags: string = pkg.config.node_flags

	it('bound the heap, and npm start passes them', () => {
		expect(flags).toMatch(/--max-old-space-size=\d+/)
		expect(flags).toMatch(/--max-semi-space-size=\d+/)
		expect(pkg.scripts.start).toContain('$npm_package_config_node_flags')
	})

	it('are the same in the Dockerfile and fly.toml', () => {
		expect(readFileSync('Dockerfile', 'utf8')).toContain(`exec node ${flags} build/server.js`)
		expect(readFileSync('fly.toml', 'utf8')).toContain(`NODE_OPTIONS = "${flags}"`)
	})

	it('are the ones the end-to-end and bench servers start with', () => {
		expect(readFileSync('tests/e2e/support/start-server.mjs', 'utf8')).toContain('config.node_flags')
	})
})
