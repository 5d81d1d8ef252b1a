import type { GetLoadContextFunction } from '@react-router/express'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { matchPath, matchRoutes, type Params, type ServerBuild } from 'react-router'
import type { DirectHandler } from '../../app/direct-handlers.server'
import type { DirectAnswer, DirectRequest } from '../../app/direct.server'
import { log } from '../../app/log/logger.server'
import { loggablePath } from '../../app/log/request-log.server'
import { routeTreeOf } from '../../app/security/rate-limit/route-match'
import { fullPathOf, routeKey, routerPathname } from './route-partitions'

/**
 * Resource routes served without React Router's request pipeline (docs/decisions/066).
 *
 * A route module opts in with `export const handle = { direct: true }`, and its handler is
 * listed by route id in the server entry's `directHandlers` (app/direct-handlers.server.ts). The
 * handler is called here for every method with a DirectRequest read off Node's own request by
 * the entry's `directRequestOfNode` (no web Request, AbortController or web stream:
 * app/direct.server.ts, docs/decisions/068), the params React Router would give it and the
 * same request context; its DirectAnswer (a status, headers and a small text body) is written
 * to the client in one piece. What React Router would
 * have added around it is not run: the root middleware (the viewer, the flash notice, the form
 * refusal of a rate limit), so a direct route must read none of them. Every Express step before
 * the routes (request log, security headers, the rate limit, method refusals) runs as for any
 * route. The route's loader and action serve the same handler for what React Router still serves.
 *
 * The route is found as React Router finds it: its matcher over the whole route table, on the
 * pathname the URL parser makes of the request (dot segments resolved), so a direct route
 * never answers a path React Router would give another route. A data request (`.data`), and a
 * marked route with no handler listed, are left to React Router, which answers them as it
 * always did.
 */

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; module: Record<string, unknown> }
type Found = { id: string; params: Params }

/** Whether a route module asked to be served directly: a resource route (no page) with `handle.direct`. */
export function isDirect(module: Record<string, unknown> | undefined): boolean {
	const handle = module?.handle as { direct?: unknown } | undefined
	return handle?.direct === true && module?.default === undefined
}

/** Pathnames whose answer is remembered: React Router compiles a pattern, and flattens and ranks the whole table, on every match. */
const REMEMBERED = 1000

/**
 * The direct route React Router gives a pathname, with its params, or null. A path no direct
 * route's own pattern takes (every page) is turned away by those patterns alone; one that a
 * pattern takes is confirmed against the whole table, as React Router ranks it, since a more
 * specific route may take it first.
 */
export function directRouteFinder(manifest: Readonly<Record<string, ManifestRoute | undefined>>) {
	const routes = routeTreeOf(manifest)
	const direct = Object.values(manifest).flatMap((route) =>
		route && isDirect(route.module)
			? [{ id: route.id, pattern: { path: `/${fullPathOf(manifest, route.id)}`, caseSensitive: route.caseSensitive === true, end: true } }]
			: [],
	)
	// A direct route's first segment is fixed text (`api`): any other first segment is not one of theirs.
	const firstSegments = new Set(direct.map(({ id }) => routeKey(manifest, id)))
	const remembered = new Map<string, Found | null>()
	return (pathname: string): Found | null => {
		// A data request (`/api/events/stripe.data`, `/api/events/.data`) is React Router's to answer.
		if (direct.length === 0 || pathname.endsWith('.data')) return null
		if (!firstSegments.has(null) && !firstSegments.has(pathname.split('/')[1]!.toLowerCase())) return null
		const known = remembered.get(pathname)
		// A copy of the params: a route that changed its own must not change the next request's.
		if (known !== undefined) return known && { id: known.id, params: { ...known.params } }
		let found: Found | null = null
		if (direct.some(({ pattern }) => matchPath(pattern, pathname))) {
			const leaf = matchRoutes(routes, pathname)?.at(-1)
			if (leaf && direct.some(({ id }) => id === leaf.route.id)) found = { id: leaf.route.id!, params: leaf.params }
		}
		if (pathname.length <= 256) {
			if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value as string)
			remembered.set(pathname, found && { id: found.id, params: { ...found.params } })
		}
		return found
	}
}

/** The last resort React Router answers when a resource route throws. */
const UNEXPECTED: DirectAnswer = { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Unexpected Server Error' }

/**
 * Writes a direct answer in one piece; a HEAD request gets the headers alone. The rest of a
 * body answered before it was read to its end is dropped after the answer (dropUnreadBodies,
 * mounted before every route).
 */
function send(req: ExpressRequest, res: ExpressResponse, { status, headers, body }: DirectAnswer) {
	if (res.destroyed || res.writableEnded) return
	res.statusCode = status
	for (const name in headers) res.setHeader(name, headers[name]!)
	res.setHeader('Content-Length', Buffer.byteLength(body))
	if (req.method === 'HEAD') res.end()
	else res.end(body)
}

/**
 * Express handler for the direct routes of `build`: a request one of them answers is answered
 * here; every other request goes on (`next`) to React Router. In development the build is a
 * function that changes with every edit: the table is read again when it does.
 */
export function directRoutes({
	build,
	getLoadContext,
}: {
	build: ServerBuild | (() => Promise<ServerBuild>)
	getLoadContext?: GetLoadContextFunction
}): RequestHandler {
	let current: { build: ServerBuild; find: (pathname: string) => Found | null } | undefined
	const finderOf = (next: ServerBuild) => {
		if (current?.build !== next) current = { build: next, find: directRouteFinder(next.routes as Record<string, ManifestRoute | undefined>) }
		return current.find
	}
	return async (req, res, next) => {
		try {
			const latest = typeof build === 'function' ? await build() : build
			const find = finderOf(latest)
			const pathname = routerPathname(req)
			if (pathname === null) return next()
			const found = find(pathname)
			if (!found) return next()
			const entry = latest.entry.module as {
				directHandlers?: Readonly<Record<string, DirectHandler>>
				directRequestOfNode?: (req: ExpressRequest) => DirectRequest
			}
			const serve = entry.directHandlers?.[found.id]
			if (typeof serve !== 'function' || typeof entry.directRequestOfNode !== 'function') return next()
			const args = { request: entry.directRequestOfNode(req), params: found.params, context: await getLoadContext?.(req, res) }
			let answer: DirectAnswer
			try {
				answer = await serve(args)
			} catch (thrown) {
				// As the entry's handleError logs a failed route: once, redacted, naming nothing of the error in the answer.
				if (!req.destroyed) log.error({ err: thrown, method: req.method, path: loggablePath(pathname) }, '[store] a route failed')
				answer = UNEXPECTED
			}
			send(req, res, answer)
		} catch (error) {
			next(error)
		}
	}
}
