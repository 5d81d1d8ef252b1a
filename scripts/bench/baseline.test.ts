import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

const app = path.resolve(import.meta.dirname, 'baseline/app')

/**
 * The bench's baseline is what a user would run instead, written as the framework's docs would
 * write it: it must never do per-request work the store caches, or every ratio is flattered.
 */
describe('the bench baseline is not handicapped', () => {
	it('formats prices with a formatter built once, not one per price', async () => {
		const Original = Intl.NumberFormat
		let made = 0
		Intl.NumberFormat = new Proxy(Original, {
			construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => (made++, new target(...args)),
			apply: (target, _this, args: ConstructorParameters<typeof Intl.NumberFormat>) => (made++, target(...args)),
		})
		try {
			vi.resetModules()
			const { price, products } = await import('./baseline/app/catalog')
			const atLoad = made
			expect(atLoad).toBe(1)
			for (let request = 0; request < 3; request++) for (const product of products) price(product.price)
			expect(made).toBe(atLoad)
			expect(price(2400)).toBe('$24.00')
		} finally {
			Intl.NumberFormat = Original
		}
	})

	it('runs the template’s production server as written: compression, assets, its request logger, static files, then the app', () => {
		// The node-custom-server template's production branch, in its order (the bench adds only
		// /healthz). Without morgan the baseline would skip the one line per request the store writes.
		const server = readFileSync(path.resolve(import.meta.dirname, 'baseline/server.mjs'), 'utf8')
		const uses = [...server.matchAll(/^app\.(?:use|all)\((.*)\)$/gm)].map(([, args]) => args!.replace(/`\$\{here\}/g, '`'))
		expect(uses).toEqual([
			'compression()',
			"'/assets', express.static(`build/client/assets`, { immutable: true, maxAge: '1y' })",
			"morgan('tiny')",
			"express.static(`build/client`, { maxAge: '1h' })",
			"'/{*path}', createRequestHandler({ build, mode: 'production' })",
		])
	})

	it('builds no formatter, collator or date format inside a route module’s render or loader', () => {
		const routes = readdirSync(path.join(app, 'routes')).map((file) => readFileSync(path.join(app, 'routes', file), 'utf8'))
		for (const source of routes) expect(source).not.toMatch(/new Intl\.|toLocaleString\(|JSON\.parse\(JSON\.stringify/)
	})
})

describe('the bench baseline builds from a fresh clone', () => {
	it("builds with React Router's own entry, its runtime read from its own package.json", () => {
		// The store lists no @react-router/node of its own; the template does, and React Router's
		// build picks its default server entry from the nearest package.json's dependencies.
		const root = path.resolve(import.meta.dirname, 'baseline')
		const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
		expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['@react-router/node', '@react-router/express', 'isbot']))
		rmSync(path.join(root, 'build'), { recursive: true, force: true })
		execFileSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } })
		expect(existsSync(path.join(root, 'build/server/index.js'))).toBe(true)
	}, 120_000)
})
