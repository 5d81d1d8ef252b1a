/**
 * A partition answers every request exactly as the whole route table would: the same routes
 * matched, with the same parameters, for every kind of path a browser, a crawler or an
 * attacker can send. Checked over the store's real route table (app/routes.ts).
 */
import fc from 'fast-check'
import { matchRoutes, type RouteObject } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import table from '../app/routes'
import { manifestOf } from '../tests/helpers/route-manifest'
import { buildFor, fullPathOf, requestKey, routeKey, routesFor } from './route-partitions'

const manifest = manifestOf(table)

function treeOf(ids: ReadonlySet<string>, parentId?: string): RouteObject[] {
	return Object.values(manifest)
		.filter((route) => route.parentId === parentId && ids.has(route.id))
		.map((route) => {
			const children = treeOf(ids, route.id)
			return route.index
				? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
				: { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children }
		})
}

const fullTree = treeOf(new Set(Object.keys(manifest)))
const fixedKeys = new Set(
	Object.keys(manifest)
		.map((id) => routeKey(manifest, id))
		.filter((key): key is string => key !== null && key !== ''),
)

/** What React Router matches: the pathname without a data request's suffix or a trailing slash. */
function normalized(pathname: string) {
	let path = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '')
	if (path !== '/' && path.endsWith('/')) path = path.slice(0, -1)
	return path
}

const matched = (tree: RouteObject[], pathname: string) =>
	(matchRoutes(tree, normalized(pathname)) ?? []).map((match) => ({ id: match.route.id, params: match.params }))

/** The request as the store sees it: the pathname the URL parser makes of what was sent. */
const pathnameOf = (sent: string) => new URL(`http://store.invalid${sent.startsWith('/') ? sent : `/${sent}`}`).pathname

function expectSameAnswer(sent: string) {
	const pathname = pathnameOf(sent)
	const partition = treeOf(routesFor(manifest, requestKey(pathname, fixedKeys)))
	expect(matched(partition, pathname), sent).toEqual(matched(fullTree, pathname))
}

/** A path written from a route's own pattern: parameters and splats filled, letters in any case. */
const fromPattern = fc
	.record({
		id: fc.constantFrom(...Object.keys(manifest)),
		value: fc.stringMatching(/^[A-Za-z0-9~._%-]{1,12}$/),
		rest: fc.array(fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/), { maxLength: 3 }),
		upper: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
		suffix: fc.constantFrom('', '/', '.data', '/.data', '?index', '//'),
	})
	.map(({ id, value, rest, upper, suffix }) => {
		const path = fullPathOf(manifest, id)
			.split('/')
			.map((segment) => (segment.startsWith(':') ? value : segment === '*' ? rest.join('/') : segment))
			.join('/')
		const cased = [...path].map((char, i) => (upper[i % upper.length] ? char.toUpperCase() : char)).join('')
		return `/${cased}${suffix}`
	})

/** Anything at all: escapes good and bad, dots, backslashes, doubled slashes, non-ASCII letters. */
const anyPath = fc
	.array(
		fc.constantFrom(
			'/',
			'/',
			'admin',
			'Products',
			'cart',
			'api',
			'%2F',
			'%2f',
			'%70',
			'%',
			'%E0%A4%A',
			'.',
			'..',
			'\\',
			'İ',
			'ſ',
			'K',
			'x',
			'_root',
			'.data',
			'*',
			':slug',
		),
		{
			maxLength: 8,
		},
	)
	.map((parts) => `/${parts.join('')}`)

describe('route partitions', () => {
	// React Router warns on every path it cannot decode; those are expected here.
	let warn: { mockRestore(): void } | undefined
	beforeEach(() => void (warn = vi.spyOn(console, 'warn').mockImplementation(() => {})))
	afterEach(() => warn?.mockRestore())

	it('match every path written from a route of the table to the same routes and parameters [R5]', () => {
		fc.assert(fc.property(fromPattern, expectSameAnswer), { numRuns: 2000 })
	})

	it('match any other path, escaped, dotted, doubled or not ASCII, as the whole table does', () => {
		fc.assert(fc.property(anyPath, expectSameAnswer), { numRuns: 3000 })
		for (const sent of [
			'/',
			'//',
			'/_root.data',
			'/cart.data',
			'/Products/canvas-tote',
			'/%70roducts/canvas-tote',
			'/admin/../products/x',
			'/products%2Fx',
			'/\\admin',
			'/İ',
			'/a/b/c',
		])
			expectSameAnswer(sent)
	})

	it('keep the /admin guard: every admin path is answered by a table that holds the admin layout and its middleware [R5]', () => {
		for (const sent of ['/admin', '/admin/', '/ADMIN/orders', '/admin/orders/1001.data', '/admin/no-such-page']) {
			const kept = routesFor(manifest, requestKey(pathnameOf(sent), fixedKeys))
			expect(kept.has('routes/admin/layout'), sent).toBe(true)
		}
		// and the layout never sits above anything but admin routes
		const adminChildren = Object.values(manifest).filter((route) => route.parentId === 'routes/admin/layout')
		for (const child of adminChildren) expect(fullPathOf(manifest, child.id)).toMatch(/^admin(\/|$)/)
	})

	it('hand a storefront page only the few routes that can answer it', () => {
		const home = routesFor(manifest, requestKey('/', fixedKeys))
		expect([...home].sort()).toEqual(['root', 'routes/store/home', 'routes/store/not-found'])
		const product = routesFor(manifest, requestKey('/products/canvas-tote', fixedKeys))
		expect([...product].sort()).toEqual(['root', 'routes/store/not-found', 'routes/store/product'])
		expect(Object.keys(manifest).length).toBeGreaterThan(40)
	})

	it('reads the first segment as React Router does: decoded, case-folded only in ASCII, data suffix removed', () => {
		expect(requestKey('/Products/x', fixedKeys)).toBe('products')
		expect(requestKey('/%70roducts/x', fixedKeys)).toBe('products')
		expect(requestKey('/cart.data', fixedKeys)).toBe('cart')
		expect(requestKey('/_root.data', fixedKeys)).toBe('')
		expect(requestKey('/', fixedKeys)).toBe('')
		expect(requestKey('/no-such-page', fixedKeys)).toBeNull()
		expect(requestKey('/%E0%A4%A', fixedKeys)).toBeNull()
		expect(requestKey('/products%2Fx', fixedKeys)).toBeNull()
	})

	it('cuts the build to the kept routes and keeps everything else of it', () => {
		const build = {
			routes: { root: { id: 'root' }, a: { id: 'a', parentId: 'root' }, b: { id: 'b', parentId: 'root' } },
			assets: { url: '/assets/manifest.js', version: '1', entry: {}, routes: { root: { id: 'root' }, a: { id: 'a' }, b: { id: 'b' } } },
			entry: { module: {} },
			basename: '/',
		} as unknown as Parameters<typeof buildFor>[0]
		const cut = buildFor(build, new Set(['root', 'a']))
		expect(Object.keys(cut.routes)).toEqual(['root', 'a'])
		expect(Object.keys(cut.assets.routes)).toEqual(['root', 'a'])
		expect(cut.assets.url).toBe('/assets/manifest.js')
		expect(cut.entry).toBe(build.entry)
	})
})
