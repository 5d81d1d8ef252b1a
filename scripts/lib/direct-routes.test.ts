/**
 * A direct route answers exactly the requests React Router would give it, with the params
 * React Router would give it, and everything else goes on to React Router untouched; what it
 * answers reaches the client as React Router's adapter would write it.
 */
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import express from 'express'
import fc from 'fast-check'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import table from '../../app/routes'
import { handle as eventsHandle } from '../../app/routes/api/events'
import { manifestOf } from '../../tests/helpers/route-manifest'
import { directRouteFinder, directRoutes, isDirect } from './direct-routes'

/** The store's route table as the build lists it, each module stood in for by what marks it direct. */
const manifest = manifestOf(table, (id) => (id === 'routes/api/events' ? { handle: eventsHandle } : {}))

function treeOf(parentId?: string): RouteObject[] {
	return Object.values(manifest)
		.filter((route) => route.parentId === parentId)
		.map((route) =>
			route.index
				? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
				: { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: treeOf(route.id) },
		)
}
const fullTree = treeOf(undefined)

/** What React Router itself gives a pathname, kept only when it is a direct route. */
function reactRouterAnswer(pathname: string) {
	if (pathname.endsWith('.data')) return null
	const leaf = matchRoutes(fullTree, pathname)?.at(-1)
	return leaf && isDirect(manifest[leaf.route.id!]?.module) ? { id: leaf.route.id, params: leaf.params } : null
}

const pathnameOf = (sent: string) => new URL(`http://store.invalid${sent}`).pathname

/** Paths near the direct route's own: its segments and others, escaped, cased, dotted, doubled. */
const nearPaths = fc
	.array(
		fc.constantFrom('/', 'api', 'API', 'events', 'Events', 'stripe', 'generic', 'auth', 'upload', '%61pi', '%2F', '.', '..', '.data', 'x', '%', 'İ', '\\'),
		{ maxLength: 7 },
	)
	.map((parts) => `/${parts.join('')}`)

const find = directRouteFinder(manifest)

describe('direct routes: which requests they answer', () => {
	let warn: { mockRestore(): void } | undefined
	afterEach(() => warn?.mockRestore())

	it('the provider event endpoint is a direct route', () => {
		expect(isDirect({ handle: eventsHandle })).toBe(true)
		expect(find('/api/events/stripe')).toEqual({ id: 'routes/api/events', params: { connection: 'stripe' } })
	})

	it('answer a path only when React Router would give it to the direct route, with its params [R5]', () => {
		// React Router warns on every path it cannot decode; those are expected here.
		warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		fc.assert(
			fc.property(nearPaths, (sent) => {
				const pathname = pathnameOf(sent)
				const found = find(pathname)
				// Taken directly only when React Router agrees; a path it leaves (an escaped first
				// segment, say) goes on to React Router, which is never wrong.
				if (found) expect(found, sent).toEqual(reactRouterAnswer(pathname))
			}),
			{ numRuns: 3000 },
		)
		for (const [sent, connection] of [
			['/api/events/stripe', 'stripe'],
			['/API/Events/stripe', 'stripe'],
			['/api/events/stripe/', 'stripe'],
			['/api/x/../events/generic', 'generic'],
		] as const) {
			expect(find(pathnameOf(sent)), sent).toEqual({ id: 'routes/api/events', params: { connection } })
		}
		for (const sent of ['/api/events', '/api/events/a/b', '/api/auth/session', '/api/upload', '/', '/products/x', '/admin/events', '/api/events/stripe.data']) {
			expect(reactRouterAnswer(pathnameOf(sent)), sent).toBeNull()
			if (!sent.endsWith('.data')) expect(find(pathnameOf(sent)), sent).toBeNull()
		}
	})

	it('a route without the mark, or with a page, is never direct', () => {
		expect(isDirect({})).toBe(false)
		expect(isDirect({ handle: { direct: 'yes' } })).toBe(false)
		expect(isDirect({ handle: { direct: true }, default: () => null })).toBe(false)
	})
})

/** A build of a root (with middleware that must not run for a direct route) and three routes. */
function buildOf(modules: { direct: Record<string, unknown>; plain?: Record<string, unknown> }, handleError = vi.fn()) {
	const routes = {
		root: { id: 'root', path: '', module: { middleware: [() => Promise.reject(new Error('root middleware ran'))] } },
		'routes/hook': { id: 'routes/hook', parentId: 'root', path: 'hook/:name', module: { handle: { direct: true }, ...modules.direct } },
		'routes/hook-special': { id: 'routes/hook-special', parentId: 'root', path: 'hook/special', module: modules.plain ?? {} },
	}
	return { build: { routes, entry: { module: { handleError } } } as unknown as ServerBuild, handleError }
}

async function serve(build: ServerBuild, context: unknown = { from: 'context' }) {
	const app = express()
	app.use(directRoutes({ build, getLoadContext: () => context as never }))
	app.use((req, res) => void res.status(299).setHeader('X-Fell-Through', req.path).end())
	const server = app.listen(0, '127.0.0.1')
	await once(server, 'listening')
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { base, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('direct routes: what they answer', () => {
	it('calls the action with the Request, the params and the context, and writes its Response', async () => {
		const action = vi.fn(async ({ request, params, context }: { request: Request; params: Record<string, string>; context: unknown }) => {
			const body = await request.text()
			const headers = new Headers({ 'Content-Type': 'application/json', 'X-Echo': request.headers.get('x-sent') ?? '' })
			headers.append('Set-Cookie', 'a=1; Path=/')
			headers.append('Set-Cookie', 'b=2; Path=/')
			return new Response(JSON.stringify({ body, params, context, method: request.method, url: request.url }), { status: 202, headers })
		})
		const { build } = buildOf({ direct: { action } })
		const server = await serve(build)
		try {
			const response = await fetch(`${server.base}/hook/one%20two?x=1`, { method: 'POST', body: 'payload bytes', headers: { 'X-Sent': 'yes' } })
			expect(response.status).toBe(202)
			expect(response.headers.get('x-echo')).toBe('yes')
			expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
			expect(await response.json()).toEqual({
				body: 'payload bytes',
				params: { name: 'one two' },
				context: { from: 'context' },
				method: 'POST',
				url: `${server.base}/hook/one%20two?x=1`,
			})
		} finally {
			await server.close()
		}
	})

	it('answers GET and HEAD with the loader; a method without its function goes on to React Router [R42]', async () => {
		const loader = vi.fn(async () => new Response('from the loader', { headers: { 'Content-Type': 'text/plain' } }))
		const server = await serve(buildOf({ direct: { loader } }).build)
		try {
			const get = await fetch(`${server.base}/hook/x`)
			expect([get.status, await get.text()]).toEqual([200, 'from the loader'])
			const head = await fetch(`${server.base}/hook/x`, { method: 'HEAD' })
			expect([head.status, await head.text()]).toEqual([200, ''])
			const post = await fetch(`${server.base}/hook/x`, { method: 'POST', body: 'x' })
			expect([post.status, post.headers.get('x-fell-through')]).toEqual([299, '/hook/x'])
			expect(loader).toHaveBeenCalledTimes(2)
		} finally {
			await server.close()
		}
	})

	it('leaves to React Router a path another route ranks first, a data request, and any other path', async () => {
		const action = vi.fn(async () => new Response('direct'))
		const server = await serve(buildOf({ direct: { action } }).build)
		try {
			for (const path of ['/hook/special', '/hook/x.data', '/hooks/x', '/hook/x/y', '/']) {
				const response = await fetch(`${server.base}${path}`, { method: 'POST', body: 'x' })
				expect([path, response.status]).toEqual([path, 299])
			}
			expect(action).not.toHaveBeenCalled()
		} finally {
			await server.close()
		}
	})

	it('answers a thrown Response as it is, and anything else thrown with a 500 that names nothing, reported to the entry', async () => {
		const secret = new Error('postgresql://user:hunter2@db/store is down')
		const action = vi.fn(async ({ params }: { params: Record<string, string> }) => {
			if (params.name === 'refused') throw new Response('no', { status: 403 })
			if (params.name === 'not-a-response') return { ok: true }
			throw secret
		})
		const { build, handleError } = buildOf({ direct: { action } })
		const server = await serve(build)
		try {
			const refused = await fetch(`${server.base}/hook/refused`, { method: 'POST' })
			expect([refused.status, await refused.text()]).toEqual([403, 'no'])
			expect(handleError).not.toHaveBeenCalled()
			const failed = await fetch(`${server.base}/hook/broken`, { method: 'POST' })
			expect([failed.status, await failed.text()]).toEqual([500, 'Unexpected Server Error'])
			expect(handleError).toHaveBeenCalledWith(secret, expect.objectContaining({ params: { name: 'broken' } }))
			const odd = await fetch(`${server.base}/hook/not-a-response`, { method: 'POST' })
			expect(odd.status).toBe(500)
			expect(handleError).toHaveBeenCalledTimes(2)
		} finally {
			await server.close()
		}
	})

	it("aborts the Request's signal when the client goes away before the answer", async () => {
		let aborted: Promise<boolean> = Promise.resolve(false)
		const action = vi.fn(async ({ request }: { request: Request }) => {
			aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(true)))
			await aborted
			return new Response('too late')
		})
		const server = await serve(buildOf({ direct: { action } }).build)
		try {
			const client = new AbortController()
			const sent = fetch(`${server.base}/hook/slow`, { method: 'POST', body: 'x', signal: client.signal }).catch(() => 'cut')
			await vi.waitFor(() => expect(action).toHaveBeenCalled())
			client.abort()
			expect(await sent).toBe('cut')
			expect(await aborted).toBe(true)
		} finally {
			await server.close()
		}
	})
})
