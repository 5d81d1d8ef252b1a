import { createRequestHandler, type GetLoadContextFunction } from '@react-router/express'
import type { Request, RequestHandler } from 'express'
import type { ServerBuild } from 'react-router'

/**
 * One React Router request handler per first path segment (docs/decisions/053-route-partitions.md).
 *
 * React Router's server does work in proportion to the whole route table on every request: it
 * tries every ranked route branch (building match objects for each) twice, and rebuilds the
 * route tree for React twice per page: 53 routes here, against the 3 that can answer `/`. A
 * request can only match a route whose path starts with the request's first segment, or one
 * whose first segment is not fixed text (a parameter or a splat). So each first segment gets
 * a handler built over just those routes and their parents: the same matches, the same
 * responses, with a small fraction of the per-request work.
 */

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean }
type Routes = Readonly<Record<string, RouteEntry | undefined>>

/** A first segment that is fixed text: matched by value, never a parameter, optional or splat. */
const FIXED = /^[\w.~-]+$/

/** The route's full path, its parents' paths joined, without leading or doubled slashes. */
export function fullPathOf(routes: Routes, id: string): string {
	const parts: string[] = []
	for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
		if (route.path) parts.unshift(route.path)
	}
	return parts.join('/').split('/').filter(Boolean).join('/')
}

/**
 * The key a route is filed under: its full path's first segment lower-cased ('' for a path of
 * none, the index), or null when that segment is not fixed text and any request may match it.
 */
export function routeKey(routes: Routes, id: string): string | null {
	const first = fullPathOf(routes, id).split('/')[0]!
	if (first === '') return ''
	return FIXED.test(first) ? first.toLowerCase() : null
}

/** The routes a request filed under `key` can match (null: a first segment no route fixes), with their parents. */
export function routesFor(routes: Routes, key: string | null): Set<string> {
	const kept = new Set<string>()
	for (const route of Object.values(routes)) {
		if (!route || (route.path === undefined && !route.index)) continue
		const own = routeKey(routes, route.id)
		if (own !== null && own !== key) continue
		for (let up: RouteEntry | undefined = route; up && !kept.has(up.id); up = up.parentId ? routes[up.parentId] : undefined) kept.add(up.id)
	}
	return kept
}

const ASCII = /^[\x00-\x7f]*$/

/**
 * The key of the pathname React Router will match for a request: its `.data` suffix (a
 * client navigation's data request) removed as React Router removes it, then the first
 * segment decoded as React Router decodes it and lower-cased as its case-insensitive match
 * compares. A key no route fixes is null.
 */
export function requestKey(pathname: string, fixedKeys: ReadonlySet<string>): string | null {
	let path = pathname
	if (path === '/_root.data') path = '/'
	else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length)
	const raw = path.split('/')[1] ?? ''
	let segment = raw
	try {
		segment = decodeURIComponent(raw).replace(/\//g, '%2F')
	} catch {
		// React Router matches an undecodable path as it is.
	}
	// A non-ASCII character never equals an ASCII one under a case-insensitive RegExp.
	if (ASCII.test(segment)) segment = segment.toLowerCase()
	if (segment === '') return ''
	return fixedKeys.has(segment) ? segment : null
}

/** The server build cut down to the given routes: the same modules, entry and assets. */
export function buildFor(build: ServerBuild, kept: ReadonlySet<string>): ServerBuild {
	const pick = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([id]) => kept.has(id))) as Record<string, T>
	return { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } }
}

/**
 * Express handler: the request goes to the handler of its key, built on first use (one per
 * fixed first segment in the route table, plus one for everything else: a bounded set).
 * In development the build is a function that changes with every edit: one handler over it.
 */
export function partitionedRequestHandler({
	build,
	mode,
	getLoadContext,
}: {
	build: ServerBuild | (() => Promise<ServerBuild>)
	mode?: string
	getLoadContext?: GetLoadContextFunction
}): RequestHandler {
	if (typeof build === 'function') return createRequestHandler({ build, mode, getLoadContext })
	const routes = build.routes as Routes
	const fixedKeys = new Set(
		Object.keys(routes)
			.map((id) => routeKey(routes, id))
			.filter((key): key is string => key !== null && key !== ''),
	)
	const handlers = new Map<string | null, RequestHandler>()
	const handlerFor = (key: string | null) => {
		let handler = handlers.get(key)
		if (!handler) {
			handler = createRequestHandler({ build: buildFor(build, routesFor(routes, key)), mode, getLoadContext })
			handlers.set(key, handler)
		}
		return handler
	}
	return (req, res, next) => {
		// A URL the adapter cannot parse fails there, in any handler: it is left to the handler of
		// no fixed segment, whose adapter refuses it like any other.
		const pathname = routerPathname(req)
		return handlerFor(pathname === null ? null : requestKey(pathname, fixedKeys))(req, res, next)
	}
}

const pathnames = new WeakMap<Request, string | null>()

/**
 * The pathname React Router will read for a request, parsed as its Express adapter builds the
 * URL (origin and path joined): the WHATWG URL parser resolves dot segments and backslashes that
 * Express's raw path keeps. Null when the adapter could not parse it. Parsed once a request: the
 * direct routes and the partitions both read it.
 */
export function routerPathname(req: Request): string | null {
	let pathname = pathnames.get(req)
	if (pathname === undefined) {
		try {
			pathname = new URL(`http://store.invalid${req.originalUrl}`).pathname
		} catch {
			pathname = null
		}
		pathnames.set(req, pathname)
	}
	return pathname
}
