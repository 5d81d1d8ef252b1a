import { createReadableStreamFromReadable } from '@react-router/node'
import type { GetLoadContextFunction } from '@react-router/express'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { matchPath, matchRoutes, type Params, type ServerBuild } from 'react-router'
import { routeTreeOf } from '../../app/security/rate-limit/route-match'
import { fullPathOf, routeKey, routerPathname } from './route-partitions'

/**
 * Resource routes served without React Router's request pipeline (docs/decisions/066).
 *
 * A route module opts in with `export const handle = { direct: true }`. Its loader (GET, HEAD)
 * or action (every other method) is called here with the Request, the params React Router
 * would give it and the same request context, and its Response is written to the client
 * whole. What React Router would have added around it is not run: the root middleware (the
 * viewer, the flash notice, the form refusal of a rate limit), so a direct route must read
 * none of them, and must answer a small body (it is buffered, not streamed). Every Express
 * step before the routes (request log, security headers, the rate limit, method refusals)
 * runs as for any route.
 *
 * The route is found as React Router finds it: its matcher over the whole route table, on the
 * pathname the URL parser makes of the request (dot segments resolved), so a direct route
 * never answers a path React Router would give another route. A data request (`.data`) and a
 * route without the function for its method are left to React Router, which answers them as
 * it always did.
 */

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; module: Record<string, unknown> }
type RouteFunction = (args: { request: Request; params: Params; context: unknown }) => Promise<Response> | Response
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
		if (direct.length === 0) return null
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

/** The last resort React Router answers when a resource route throws something other than a Response. */
const unexpected = () => new Response('Unexpected Server Error', { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

/**
 * The Request a route reads, as React Router's Express adapter builds it: the client's host and
 * port as Express resolved them (`trust proxy`), the original URL, every header, the body
 * streamed, and a signal aborted when the client goes away before the answer is sent.
 */
function requestOf(req: ExpressRequest, res: ExpressResponse): Request {
	const controller = new AbortController()
	res.once('close', () => {
		if (!res.writableFinished) controller.abort()
	})
	const headers = new Headers()
	for (let at = 0; at < req.rawHeaders.length; at += 2) headers.append(req.rawHeaders[at]!, req.rawHeaders[at + 1]!)
	const host = (req.host || 'localhost').split(/[\\/?#@]/)[0] || 'localhost'
	const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		init.body = createReadableStreamFromReadable(req)
		init.duplex = 'half'
	}
	return new Request(new URL(`${req.protocol}://${host}${req.originalUrl}`).href, init)
}

/** Writes a route's Response: its status and headers (each Set-Cookie its own), then its body in one piece. */
async function send(req: ExpressRequest, res: ExpressResponse, response: Response) {
	if (res.destroyed || res.writableEnded) {
		await response.body?.cancel()
		return
	}
	res.statusCode = response.status
	if (response.statusText) res.statusMessage = response.statusText
	for (const [name, value] of response.headers) {
		if (name !== 'set-cookie') res.append(name, value)
	}
	for (const cookie of response.headers.getSetCookie()) res.append('Set-Cookie', cookie)
	if (!response.body || req.method === 'HEAD') {
		await response.body?.cancel()
		res.end()
		return
	}
	res.end(Buffer.from(await response.arrayBuffer()))
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
			if (pathname === null || pathname.endsWith('.data')) return next()
			const found = find(pathname)
			if (!found) return next()
			const module = latest.routes[found.id]!.module as unknown as Record<string, unknown>
			const run = (req.method === 'GET' || req.method === 'HEAD' ? module.loader : module.action) as RouteFunction | undefined
			if (typeof run !== 'function') return next()
			const request = requestOf(req, res)
			const args = { request, params: found.params, context: await getLoadContext?.(req, res) }
			let response: Response
			try {
				const answer: unknown = await run(args)
				if (!(answer instanceof Response)) throw new Error(`the direct route ${found.id} answered something other than a Response`)
				response = answer
			} catch (thrown) {
				if (thrown instanceof Response) response = thrown
				else {
					const entry = latest.entry.module as { handleError?: (error: unknown, args: unknown) => void }
					entry.handleError?.(thrown, args)
					response = unexpected()
				}
			}
			await send(req, res, response)
		} catch (error) {
			next(error)
		}
	}
}
