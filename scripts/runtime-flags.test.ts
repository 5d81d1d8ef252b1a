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

// Issue 11.3: glibc gives every thread that allocates an arena of its own (libuv's pool, V8's
// compiler and GC threads); bounding them is part of the memory answer, set alike everywhere.
describe('the malloc arena bound (issue 11.3)', () => {
	const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
	const arenas: string = pkg.config.malloc_arena_max

	it('is a small number, and npm start passes it', () => {
		expect(arenas).toMatch(/^[1-4]$/)
		expect(pkg.scripts.start).toContain('MALLOC_ARENA_MAX=$npm_package_config_malloc_arena_max')
	})

	it('is the same in the Dockerfile, fly.toml and the end-to-end and bench servers', () => {
		expect(readFileSync('Dockerfile', 'utf8')).toContain(`ENV MALLOC_ARENA_MAX=${arenas}`)
		expect(readFileSync('fly.toml', 'utf8')).toContain(`MALLOC_ARENA_MAX = "${arenas}"`)
		expect(readFileSync('tests/e2e/support/start-server.mjs', 'utf8')).toContain('MALLOC_ARENA_MAX: config.malloc_arena_max')
	})
})
