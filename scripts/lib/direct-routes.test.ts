/**
 * A direct route answers exactly the requests React Router would give it, with the params
 * React Router would give it, and everything else goes on to React Router untouched; its
 * handler reads Node's own request and its answer reaches the client whole.
 */
import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import express from 'express'
import fc from 'fast-check'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import table from '../../app/routes'
import { handle as eventsHandle } from '../../app/routes/api/events'
import { manifestOf } from '../../tests/helpers/route-manifest'
import type { DirectHandler } from '../../app/direct-handlers.server'
import { directRequestOfNode } from '../../app/direct.server'
import { observeLogs } from '../../app/log/logger.server'
import { BodyTooLargeError } from '../../app/security/body-limit.server'
import { DROP_LIMIT_BYTES, dropUnreadBodies } from '../../app/security/http.server'
import { expectErrorLog } from '../../tests/setup/fail-on-error-log'
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
		for (const sent of [
			'/api/events',
			'/api/events/a/b',
			'/api/auth/session',
			'/api/upload',
			'/',
			'/products/x',
			'/admin/events',
			'/api/events/stripe.data',
			'/api/events/.data',
		]) {
			expect(reactRouterAnswer(pathnameOf(sent)), sent).toBeNull()
			expect(find(pathnameOf(sent)), sent).toBeNull()
		}
	})

	it('a route without the mark, or with a page, is never direct', () => {
		expect(isDirect({})).toBe(false)
		expect(isDirect({ handle: { direct: 'yes' } })).toBe(false)
		expect(isDirect({ handle: { direct: true }, default: () => null })).toBe(false)
	})
})

/** A build of a root (with middleware that must not run for a direct route), three routes, and the entry's handlers. */
function buildOf(handler: DirectHandler | undefined, plain: Record<string, unknown> = {}) {
	const routes = {
		root: { id: 'root', path: '', module: { middleware: [() => Promise.reject(new Error('root middleware ran'))] } },
		'routes/hook': { id: 'routes/hook', parentId: 'root', path: 'hook/:name', module: { handle: { direct: true } } },
		'routes/hook-special': { id: 'routes/hook-special', parentId: 'root', path: 'hook/special', module: plain },
	}
	return { routes, entry: { module: { directHandlers: handler ? { 'routes/hook': handler } : {}, directRequestOfNode } } } as unknown as ServerBuild
}

async function serve(build: ServerBuild, context: unknown = { from: 'context' }) {
	const app = express()
	// As the server mounts it before every route.
	app.use(dropUnreadBodies)
	app.use(directRoutes({ build, getLoadContext: () => context as never }))
	app.use((req, res) => void res.status(299).setHeader('X-Fell-Through', req.path).end())
	const server = app.listen(0, '127.0.0.1')
	await once(server, 'listening')
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { base, close: () => new Promise((resolve) => server.close(resolve)) }
}

const text = (body: Uint8Array) => Buffer.from(body).toString('utf8')

describe('direct routes: what they answer', () => {
	it('calls the handler with the method, headers, body, params and context, and writes its answer', async () => {
		const handler = vi.fn<DirectHandler>(async ({ request, params, context }) => ({
			status: 202,
			headers: { 'Content-Type': 'application/json', 'X-Echo': request.headers.get('X-Sent') ?? '' },
			body: JSON.stringify({ body: text(await request.body(1024)), params, context, method: request.method, missing: request.headers.get('x-absent') }),
		}))
		const server = await serve(buildOf(handler))
		try {
			const response = await fetch(`${server.base}/hook/one%20two?x=1`, { method: 'POST', body: 'payload bytes', headers: { 'X-Sent': 'yes' } })
			expect(response.status).toBe(202)
			expect(response.headers.get('x-echo')).toBe('yes')
			expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(await response.clone().text())))
			expect(await response.json()).toEqual({ body: 'payload bytes', params: { name: 'one two' }, context: { from: 'context' }, method: 'POST', missing: null })
			const head = await fetch(`${server.base}/hook/x`, { method: 'HEAD' })
			expect([head.status, await head.text()]).toEqual([202, ''])
			expect(handler).toHaveBeenCalledTimes(2)
		} finally {
			await server.close()
		}
	})

	it('refuses a body past the cap, declared or streamed, without reading it whole [R43]', async () => {
		const outcomes: string[] = []
		const handler: DirectHandler = async ({ request }) => {
			try {
				const body = await request.body(8)
				outcomes.push(`read ${body.byteLength}`)
				return { status: 200, headers: {}, body: 'ok' }
			} catch (error) {
				outcomes.push(error instanceof BodyTooLargeError ? 'too large' : String(error))
				return { status: 413, headers: {}, body: 'too large' }
			}
		}
		const server = await serve(buildOf(handler))
		try {
			expect((await fetch(`${server.base}/hook/x`, { method: 'POST', body: '12345678' })).status).toBe(200)
			expect((await fetch(`${server.base}/hook/x`, { method: 'POST', body: '123456789' })).status).toBe(413)
			// No Content-Length: the bytes are counted as they arrive.
			const streamed = new ReadableStream({
				start(controller) {
					controller.enqueue(new TextEncoder().encode('12345'))
					controller.enqueue(new TextEncoder().encode('67890'))
					controller.close()
				},
			})
			const chunked = await fetch(`${server.base}/hook/x`, { method: 'POST', body: streamed, duplex: 'half' } as RequestInit)
			expect(chunked.status).toBe(413)
			expect(outcomes).toEqual(['read 8', 'too large', 'too large'])
			// The unread rest of a refused body is dropped after its answer: the next requests go on the same connection.
			const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
			const post = (body: string, declared: boolean) =>
				new Promise<string>((resolve, reject) => {
					const sent = http.request(
						`${server.base}/hook/x`,
						{ agent, method: 'POST', headers: declared ? { 'content-length': String(body.length) } : {} },
						(answer) => {
							answer.resume()
							answer.on('end', () => resolve(`${answer.statusCode} ${answer.headers.connection}`))
						},
					)
					sent.on('error', reject)
					if (declared) sent.end(body)
					else {
						sent.write(body.slice(0, 5))
						setTimeout(() => sent.end(body.slice(5)), 20)
					}
				})
			try {
				expect(await post('1234567890123', false)).toBe('413 keep-alive')
				expect(await post('1234', true)).toBe('200 keep-alive')
				expect(await post('1234', true)).toBe('200 keep-alive')
			} finally {
				agent.destroy()
			}
		} finally {
			await server.close()
		}
	})

	it('drops the rest of a refused body up to its limit, then cuts the connection [R43]', async () => {
		const handler: DirectHandler = async ({ request }) => {
			await request.body(8).catch(() => null)
			return { status: 413, headers: {}, body: 'too large' }
		}
		const server = await serve(buildOf(handler))
		try {
			// A raw socket that keeps sending chunks past the limit, as a client that never stops would.
			const { port } = new URL(server.base)
			const socket = net.connect(Number(port), '127.0.0.1')
			socket.on('error', () => {})
			let answer = ''
			socket.on('data', (bytes) => (answer += bytes.toString('latin1')))
			const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
			socket.write('POST /hook/x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n')
			const piece = Buffer.concat([Buffer.from('100000\r\n'), Buffer.alloc(0x100000, 'x'), Buffer.from('\r\n')])
			let written = 0
			const pump = () => {
				while (!socket.destroyed && written <= DROP_LIMIT_BYTES + 64 * 0x100000) {
					written += 0x100000
					if (!socket.write(piece)) return void socket.once('drain', pump)
				}
			}
			pump()
			await closed
			expect(answer).toMatch(/^HTTP\/1\.1 413 /)
			// Cut once the limit was dropped, well before the client stopped sending.
			expect(written).toBeGreaterThan(DROP_LIMIT_BYTES)
			expect(written).toBeLessThan(DROP_LIMIT_BYTES + 64 * 0x100000)
		} finally {
			await server.close()
		}
	})

	it('reads the body once, however often the handler asks', async () => {
		const handler: DirectHandler = async ({ request }) => {
			const [first, second] = await Promise.all([request.body(100), request.body(100)])
			return { status: 200, headers: {}, body: `${text(first)}|${text(await request.body(100))}|${first === second}` }
		}
		const server = await serve(buildOf(handler))
		try {
			const response = await fetch(`${server.base}/hook/x`, { method: 'POST', body: 'abc' })
			expect(await response.text()).toBe('abc|abc|true')
		} finally {
			await server.close()
		}
	})

	it('stops reading when the client goes away mid-body, and logs nothing for it', async () => {
		let settled: (outcome: string) => void = () => {}
		const outcome = new Promise<string>((resolve) => (settled = resolve))
		const handler: DirectHandler = async ({ request }) => {
			try {
				await request.body(1000)
				settled('read')
			} catch (error) {
				settled(error instanceof BodyTooLargeError ? 'too large' : 'cut')
				throw error
			}
			return { status: 200, headers: {}, body: 'ok' }
		}
		const server = await serve(buildOf(handler))
		try {
			const sent = http.request(`${server.base}/hook/x`, { method: 'POST', headers: { 'content-length': '100' } })
			sent.on('error', () => {})
			sent.write('0123456789')
			await vi.waitFor(() => expect(sent.writableLength).toBe(0))
			await new Promise((resolve) => setTimeout(resolve, 50))
			sent.destroy()
			expect(await outcome).toBe('cut')
			// The handler's failure is past: nothing was logged for it (the setup fails the test on an error log).
			await new Promise((resolve) => setTimeout(resolve, 50))
		} finally {
			await server.close()
		}
	})

	it('leaves to React Router a path another route ranks first, a data request, any other path, and a marked route with no handler', async () => {
		const handler = vi.fn<DirectHandler>(async () => ({ status: 200, headers: {}, body: 'direct' }))
		const server = await serve(buildOf(handler))
		const unlisted = await serve(buildOf(undefined))
		try {
			for (const path of ['/hook/special', '/hook/x.data', '/hooks/x', '/hook/x/y', '/']) {
				const response = await fetch(`${server.base}${path}`, { method: 'POST', body: 'x' })
				expect([path, response.status]).toEqual([path, 299])
			}
			expect(handler).not.toHaveBeenCalled()
			const fell = await fetch(`${unlisted.base}/hook/x`, { method: 'POST', body: 'x' })
			expect([fell.status, fell.headers.get('x-fell-through')]).toEqual([299, '/hook/x'])
		} finally {
			await server.close()
			await unlisted.close()
		}
	})

	it('answers anything thrown with a 500 that names nothing, logged once through the redaction [R13]', async () => {
		const secret = new Error('postgresql://user:hunter2@db/store is down')
		expectErrorLog(/a route failed/)
		const lines: string[] = []
		const stop = observeLogs((line) => lines.push(line))
		const server = await serve(
			buildOf(async () => {
				throw secret
			}),
		)
		try {
			const failed = await fetch(`${server.base}/hook/broken`, { method: 'POST' })
			expect([failed.status, await failed.text()]).toEqual([500, 'Unexpected Server Error'])
			const logged = lines.filter((line) => line.includes('a route failed'))
			expect(logged).toHaveLength(1)
			expect(logged[0]).toContain('/hook/broken')
			expect(logged[0]).not.toContain('hunter2')
		} finally {
			stop()
			await server.close()
		}
	})
})

describe("direct routes: the store's own", () => {
	it('every route marked direct has a handler in the server entry, and every handler a marked route', async () => {
		const { directHandlers } = await import('../../app/direct-handlers.server')
		const marked = Object.values(manifest)
			.filter((route) => isDirect(route.module))
			.map((route) => route.id)
		expect(marked).toEqual(['routes/api/events'])
		expect(Object.keys(directHandlers).sort()).toEqual(marked.sort())
		const entry = await import('../../app/entry.server')
		expect(entry.directHandlers).toBe(directHandlers)
		expect(entry.directRequestOfNode).toBe(directRequestOfNode)
	})
})
