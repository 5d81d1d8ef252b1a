import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// a runtime flag that is part of the memory answer is the same for `npm start`,
// the Dockerfile and fly.toml (docs/decisions/028-performance-budget.md).
describe('the V8 heap flags', () => {
	const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
	const flags: string = pkg.config.node_flags

	it('bound the heap, and npm start passes them', () => {
		expect(flags).toMatch(/--max-old-space-size=\d+/)
		expect(pkg.scripts.start).toContain('$npm_package_config_node_flags')
	})

	it('leave half of the VM the store is deployed on to everything but the old generation', () => {
		// V8's young generation and code, scrypt's 32 MiB blocks, libvips, SQLite's cache, buffers.
		const oldSpaceMb = Number(/--max-old-space-size=(\d+)/.exec(flags)![1])
		const vmMb = Number(/^\s*memory\s*=\s*"(\d+)mb"/m.exec(readFileSync('fly.toml', 'utf8'))![1])
		expect(oldSpaceMb).toBeLessThanOrEqual(vmMb / 2)
		expect(oldSpaceMb).toBeGreaterThanOrEqual(vmMb / 4)
	})

	it('are the same in the Dockerfile and fly.toml', () => {
		expect(readFileSync('Dockerfile', 'utf8')).toContain(`exec node ${flags} build/server.js`)
		expect(readFileSync('fly.toml', 'utf8')).toContain(`NODE_OPTIONS = "${flags}"`)
	})

	it('are the ones the end-to-end and bench servers start with', () => {
		expect(readFileSync('tests/e2e/support/start-server.mjs', 'utf8')).toContain('config.node_flags')
	})
})

// glibc gives every thread that allocates an arena of its own (libuv's pool, V8's
// compiler and GC threads); bounding them is part of the memory answer, set alike everywhere.
describe('the malloc arena bound', () => {
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

// glibc's malloc asks for transparent huge pages for its large blocks, so scrypt's
// 32 MiB per hash faults in 2 MiB pages instead of 8,192 small ones (docs/decisions/028).
describe('huge pages for large malloc blocks', () => {
	const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
	const tunables: string = pkg.config.glibc_tunables

	it('are asked for alike by npm start, the Dockerfile, fly.toml and the end-to-end and bench servers', () => {
		expect(tunables).toBe('glibc.malloc.hugetlb=1')
		expect(pkg.scripts.start).toContain('GLIBC_TUNABLES=$npm_package_config_glibc_tunables')
		expect(readFileSync('Dockerfile', 'utf8')).toContain(`ENV GLIBC_TUNABLES=${tunables}`)
		expect(readFileSync('fly.toml', 'utf8')).toContain(`GLIBC_TUNABLES = "${tunables}"`)
		expect(readFileSync('tests/e2e/support/start-server.mjs', 'utf8')).toContain('GLIBC_TUNABLES: config.glibc_tunables')
	})

	/** The kernel's THP mode (`always`, `madvise`, `never`), or `none` where there is none to read. */
	function thpMode() {
		try {
			return readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').match(/\[(\w+)\]/)?.[1] ?? 'none'
		} catch {
			return 'none'
		}
	}

	/** Kilobytes of a fresh node's memory in huge pages after it allocated a 64 MiB Buffer. */
	function hugeKb(env: Record<string, string>) {
		const probe = `const b = Buffer.alloc(64 << 20, 1); let t = ''; try { t = require('node:fs').readFileSync('/proc/self/smaps_rollup', 'utf8') } catch {}; const m = t.match(/AnonHugePages:\\s+(\\d+)/); console.log(m ? m[1] : 'none', b.length)`
		const run = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } })
		expect(run.status).toBe(0)
		const [kb, length] = run.stdout.trim().split(' ')
		expect(length).toBe(String(64 << 20))
		return kb === 'none' ? 0 : Number(kb)
	}

	it('take effect where the kernel allows them, and change nothing where it does not', () => {
		const mode = thpMode()
		const asked = hugeKb({ MALLOC_ARENA_MAX: pkg.config.malloc_arena_max, GLIBC_TUNABLES: tunables })
		const plain = hugeKb({})
		if (mode === 'madvise') {
			// This machine's mode (and Debian's default): only blocks that ask get huge pages.
			expect(asked).toBeGreaterThanOrEqual(32 * 1024)
			expect(plain).toBe(0)
		} else if (mode === 'always') {
			expect(asked).toBeGreaterThanOrEqual(32 * 1024)
		} else if (mode === 'never') {
			// THP off: the setting is inert, and node runs as before (hugeKb checked it ran).
			expect(asked).toBe(0)
		} else {
			// No THP to read (not Linux, or /sys hidden): nothing asks for huge pages here.
			expect(asked).toBe(plain)
		}
	})
})
