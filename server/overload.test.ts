import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type OverloadLimits, priorityOf, shedOverload } from './overload'

const LIMITS: OverloadLimits = { maxInFlight: 4, maxLoopDelayMs: 500, protectedHeadroom: 1.5, retryAfterSeconds: 2 }

/** A server behind the shedder whose handler holds every request until the test lets it go. */
async function serverBehind(loopDelay: { ms: number }) {
	const held: ServerResponse[] = []
	let worked = 0
	const shedder = shedOverload(LIMITS, () => loopDelay.ms)
	const server: Server = createServer((req, res) => shedder(req, res, () => (worked++, held.push(res))))
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	const send = (method: string, path: string) => fetch(`${origin}${path}`, { method, body: method === 'POST' ? 'a=1' : undefined })
	/** A request the test never reads the answer of (the server may close it at the end). */
	const fire = (method: string, path: string) => void send(method, path).catch(() => undefined)
	const release = () => held.splice(0).forEach((res) => res.end('done'))
	servers.push(server)
	return { shedder, send, fire, release, held, worked: () => worked }
}
const servers: Server[] = []
afterEach(async () => {
	for (const server of servers.splice(0)) {
		server.closeAllConnections()
		await new Promise((resolve) => server.close(resolve))
	}
})

const waitFor = async (check: () => boolean) => {
	for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
	expect(check()).toBe(true)
}

describe('shedding at the door', () => {
	it('answers a page past the in-flight limit 503 with Retry-After before any work, and lets the admitted finish [R125]', async () => {
		const door = await serverBehind({ ms: 0 })
		const admitted = Array.from({ length: 4 }, () => door.send('GET', '/products/x'))
		await waitFor(() => door.held.length === 4)
		const shed = await door.send('GET', '/products/x')
		expect(shed.status).toBe(503)
		expect(shed.headers.get('retry-after')).toBe('2')
		expect(await shed.text()).toMatch(/The store is busy/)
		const api = await door.send('GET', '/api/upload')
		expect(api.status).toBe(503)
		expect(await api.json()).toEqual({ code: 'OVERLOADED', message: expect.any(String) })
		expect(door.worked()).toBe(4)
		expect(door.shedder.shed).toBe(2)
		door.release()
		expect((await Promise.all(admitted)).map((r) => r.status)).toEqual([200, 200, 200, 200])
		await waitFor(() => door.shedder.inFlight === 0)
		const after = door.send('GET', '/products/x')
		await waitFor(() => door.held.length === 1)
		door.release()
		expect((await after).status).toBe(200)
	})

	it('admits checkout submits, sign-ins and provider events past the page limit, up to half again, then sheds them too [R125]', async () => {
		const door = await serverBehind({ ms: 0 })
		for (let i = 0; i < 4; i++) door.fire('GET', '/')
		await waitFor(() => door.held.length === 4)
		expect((await door.send('GET', '/checkout')).status).toBe(503)
		door.fire('POST', '/checkout')
		door.fire('POST', '/sign-in')
		await waitFor(() => door.held.length === 6)
		// 6 in flight = 1.5 × 4: the next protected request is shed as well.
		const events = await door.send('POST', '/api/events/bank')
		expect(events.status).toBe(503)
		expect(events.headers.get('retry-after')).toBe('2')
		door.release()
	})

	it('never sheds liveness, readiness or static files, however busy [R125]', async () => {
		const door = await serverBehind({ ms: 10_000 })
		// One checkout is admitted (nothing else in flight) and held; the seven after it are shed.
		door.fire('POST', '/checkout')
		await waitFor(() => door.held.length === 1)
		for (let i = 0; i < 7; i++) door.fire('POST', '/checkout')
		for (const path of ['/healthz', '/readyz', '/readyz?x=1', '/assets/app-1.js', '/favicon.svg']) {
			const answered = door.send('GET', path)
			await waitFor(() => door.held.length === 2)
			door.held.pop()!.end('done')
			expect((await answered).status, path).toBe(200)
		}
		expect(door.worked()).toBe(6)
		door.release()
	})

	it('sheds pages while the event loop runs later than its limit, protected requests past half again, and admits again after [R125]', async () => {
		const loop = { ms: 600 }
		const door = await serverBehind(loop)
		// Alone, a late loop is the end of one long task, not overload: the request is admitted.
		const alone = door.send('GET', '/')
		await waitFor(() => door.held.length === 1)
		// With that one still in flight, the late loop sheds pages.
		expect((await door.send('GET', '/')).status).toBe(503)
		const signIn = door.send('POST', '/sign-in')
		await waitFor(() => door.held.length === 2)
		loop.ms = 800
		expect((await door.send('POST', '/sign-in')).status).toBe(503)
		door.release()
		expect((await alone).status).toBe(200)
		expect((await signIn).status).toBe(200)
		loop.ms = 10
		const page = door.send('GET', '/')
		await waitFor(() => door.held.length === 1)
		door.release()
		expect((await page).status).toBe(200)
	})
})

describe('which door a request takes', () => {
	const doors = (rows: Array<[string | undefined, string | undefined]>) => rows.map(([method, url]) => priorityOf(method, url))

	it('protects only the exact write paths, by method, and ignores the query [R125]', () => {
		const protectedWrites: Array<[string, string]> = [
			['POST', '/checkout'],
			['POST', '/checkout?step=2'],
			['POST', '/sign-in/two-factor'],
			['POST', '/api/auth/sign-in/email'],
			['POST', '/api/events/bank'],
		]
		expect(doors(protectedWrites)).toEqual(protectedWrites.map(() => 'protected'))
		expect(
			doors([
				['GET', '/checkout'],
				['POST', '/cart'],
			]),
		).toEqual(['page', 'page'])
		expect(
			doors([
				['GET', '/healthz'],
				['HEAD', '/readyz'],
			]),
		).toEqual(['never', 'never'])
	})

	it('treats odd or crafted requests as pages: no method, no URL, case, traversal, lookalikes [R125]', () => {
		const odd: Array<[string | undefined, string | undefined]> = [
			[undefined, undefined],
			['POST', '/CHECKOUT'],
			['POST', '/checkout/../admin'],
			['POST', '/checkoutx'],
			['GET', '/healthz/../admin'],
			['GET', '/healthzz'],
			['POST', '/assets/app.js'],
			['POST', '/api/events/bank/extra'],
		]
		expect(doors(odd)).toEqual(odd.map(() => 'page'))
	})
})
