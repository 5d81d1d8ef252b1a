import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

/**
 * The store stands on its frameworks' public paths (docs/framework-departures.md): nothing in the
 * repository rewrites an installed package or changes a prototype it does not own, and the
 * production install carries what runs, not what builds.
 */
const code = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs', '*.cjs', '*.js', '.ci/run', 'Dockerfile', 'package.json'], {
	encoding: 'utf8',
})
	.split('\0')
	.filter((file) => file && file !== 'scripts/plain-ground.test.ts')

function linesMatching(pattern: RegExp) {
	return code.flatMap((file) =>
		readFileSync(file, 'utf8')
			.split('\n')
			.flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
	)
}

describe('plain ground', () => {
	it('has no code that writes into node_modules', () => {
		// A write, rename or removal whose line names node_modules: a dependency patched in place.
		const writes =
			/\b(writeFile|appendFile|copyFile|rename|rm|unlink|cp|symlink|truncate|open)(Sync)?\s*\(.*node_modules|node_modules.*\b(writeFile|appendFile|copyFile|rename|unlink|truncate)(Sync)?\s*\(/
		expect(linesMatching(writes)).toEqual([])
		// Nor a package.json script or install hook that patches one (patch-package and the like).
		const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
		const scripts = Object.entries(pkg.scripts as Record<string, string>).map(([name, script]) => `${name}: ${script}`)
		expect(scripts.filter((line) => /patch/i.test(line))).toEqual([])
		expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('patch-package')
	})

	it("changes no prototype it does not own, Node's or the language's", () => {
		const builtins =
			'IncomingMessage|ServerResponse|OutgoingMessage|Socket|Server|EventEmitter|Readable|Writable|Stream|Buffer|Object|Array|Function|String|Number|Boolean|Promise|Map|Set|WeakMap|Date|RegExp|Error|Request|Response|Headers|URL|URLSearchParams'
		// Any use of a built-in's prototype but borrowing one of its methods (`X.prototype.m.call(…)`):
		// passing it somewhere (to be defined on), assigning to it, or swapping an object's prototype.
		const changes = new RegExp(`\\b(${builtins})\\.prototype\\b(?!\\.[\\w$]+\\.(call|apply)\\()|setPrototypeOf\\(`)
		expect(linesMatching(changes)).toEqual([])
	})

	it('reaches no private framework internal', () => {
		expect(linesMatching(/\bUNSAFE_\w+/)).toEqual([])
	})

	it('ships no build-only package in the production install', () => {
		// What `npm ci --omit=dev` (and the Dockerfile's `npm prune --omit=dev`) keeps: every
		// package of the lockfile that npm did not mark as reached only through dev dependencies.
		const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { dev?: boolean }> }
		const kept = Object.entries(lock.packages)
			.filter(([dir, entry]) => dir !== '' && !entry.dev)
			.map(([dir]) => dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length))
		expect(kept.length).toBeGreaterThan(50)
		// Prisma 7's CLI (the client generator) with its dev server and studio, the TypeScript loader, the test stack.
		for (const name of ['prisma-generate', '@prisma/dev', '@prisma/studio-core', 'tsx', 'vitest', '@playwright/test', 'typescript', 'esbuild']) {
			expect(kept, name).not.toContain(name)
		}
		// The runtime CLI that migrations need stays.
		expect(kept).toContain('prisma')
	})

	it('has every peer a package requires installed, in a version it accepts', () => {
		// npm installs no peer for us (.npmrc, legacy-peer-deps): package.json lists each one.
		type Entry = { version?: string; dev?: boolean; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> }
		const { packages } = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Entry> }
		/** The package `name` as Node resolves it from the package in `dir`: its own node_modules, then each folder above. */
		const resolve = (dir: string, name: string) => {
			for (let base = dir; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
				const found = packages[`${base ? `${base}/` : ''}node_modules/${name}`]
				if (found || !base) return found
			}
		}
		const missing = Object.entries(packages).flatMap(([dir, entry]) =>
			Object.entries(entry.peerDependencies ?? {})
				.filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional)
				.flatMap(([name, range]) => {
					const peer = resolve(dir, name)
					const fits = peer?.version && semver.satisfies(peer.version, range, { includePrerelease: true }) && (entry.dev || !peer.dev)
					return fits ? [] : [`${dir} needs ${name}@${range}, has ${peer?.version ?? 'none'}${peer?.dev && !entry.dev ? ' (dev only)' : ''}`]
				}),
		)
		expect(missing).toEqual([])
	})
})
