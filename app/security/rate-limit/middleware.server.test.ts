import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Decision } from './limiter.server'
import { rateLimitMiddleware } from './middleware.server'
import { createStoreLimiter, type StoreLimiter } from './rate-limit.server'
import { parseConfig } from '../../config/env.server'

/** The part of a server build the middleware reads: the route manifest. */
const build = {
	routes: {
		root: { id: 'root', path: '' },
		'routes/store/home': { id: 'routes/store/home', parentId: 'root', index: true },
		'routes/auth/sign-in': { id: 'routes/auth/sign-in', parentId: 'root', path: 'sign-in' },
		'routes/api/auth': { id: 'routes/api/auth', parentId: 'root', path: 'api/auth/*' },
	},
} as unknown as ServerBuild

const inAMinute = () => Date.now() + 60_000
const passed = (): Decision => ({ success: true, limit: 20, remaining: 19, resetMs: inAMinute(), source: 'memory' })
const refused = (): Decision => ({ success: false, limit: 20, remaining: 0, resetMs: inAMinute(), source: 'memory' })

let verdict: Decision | 'unavailable' = passed()
let route: (req: express.Request, res: express.Response) => void = (_req, res) => void res.send('page')
let reached: Array<Decision | 'unavailable' | undefined> = []

const limiter: StoreLimiter = {
	rules: {} as StoreLimiter['rules'],
	check: async () => verdict,
	reset: async () => undefined,
	refund: async () => undefined,
	redis: undefined,
	close: async () => undefined,
}

let base = ''
let close = () => undefined as void
beforeAll(async () => {
	const app = express()
	app.use(rateLimitMiddleware({ limiter, build, onDecision: (res, decision) => (res.locals.rateLimit = decision) }))
	app.all('/{*path}', (req, res) => {
		reached.push(res.locals.rateLimit)
		route(req, res)
	})
	const server = app.listen(0, '127.0.0.1')
	await new Promise((resolve) => server.once('listening', resolve))
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	close = () => void server.close()
})
afterAll(() => close())
beforeEach(() => {
	verdict = passed()
	route = (_req, res) => void res.send('page')
	reached = []
})

/** React Router's Express adapter appends every header of the app's Response like this. */
function answersWith(status: number, headers: Record<string, string>) {
	return (_req: express.Request, res: express.Response) => {
		for (const [name, value] of Object.entries(headers)) res.append(name, value)
		res.status(status).send('answered by the route')
	}
}

const post = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { method: 'POST', headers })

describe('the rate-limit middleware’s 429 contract [R51]', () => {
	it('lets a route’s own refusal (the per-account sign-in limit) speak alone: one Retry-After and one X-RateLimit-Reset, its own [R51]', async () => {
		// A passing request carries its class's headers…
		const page = await fetch(`${base}/`)
		expect(page.headers.get('x-ratelimit-limit')).toBe('20')
		expect(page.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
		expect(page.headers.get('retry-after')).toBeNull()
		// …unless the route answered with a limit of its own.
		const accountReset = String(Math.ceil(Date.now() / 1000) + 899)
		route = answersWith(429, { 'Retry-After': '899', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': accountReset })
		for (const path of ['/api/auth/sign-in/email', '/sign-in', '/sign-in.data']) {
			const response = await post(path)
			expect(response.status, path).toBe(429)
			expect(response.headers.get('x-ratelimit-reset'), path).toBe(accountReset)
			expect(response.headers.get('retry-after'), path).toBe('899')
			expect(response.headers.get('x-ratelimit-limit'), path).toBe('10')
		}
	})

	it('hands a form page’s refused write to its action, with the class’s headers once whether or not the page repeats them [R51]', async () => {
		verdict = refused()
		route = answersWith(429, {})
		const bare = await post('/sign-in')
		expect(reached).toEqual([verdict])
		expect(bare.status).toBe(429)
		expect(Number(bare.headers.get('retry-after'))).toBeGreaterThanOrEqual(59)
		expect(bare.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(verdict.resetMs / 1000)))

		const reset = String(Math.ceil(verdict.resetMs / 1000))
		route = answersWith(429, { 'Retry-After': '60', 'X-RateLimit-Reset': reset })
		const repeated = await post('/sign-in.data')
		expect(repeated.headers.get('retry-after')).toBe('60')
		expect(repeated.headers.get('x-ratelimit-reset')).toBe(reset)
	})

	it('refuses other requests itself, before any route runs: JSON { code, message } for APIs and data requests, a page for browsers [R51]', async () => {
		verdict = refused()
		const api = await post('/api/auth/sign-up/email')
		const data = await fetch(`${base}/_root.data`)
		const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } })
		expect(reached).toEqual([])
		for (const response of [api, data, page]) {
			expect(response.status).toBe(429)
			expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
			expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
		}
		expect(await api.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringContaining('Too many attempts') })
		expect(await data.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
		expect(await page.text()).toContain('<h1>Too many requests</h1>')
	})
})

describe('the rate-limit middleware while Redis is unavailable [R54]', () => {
	it('sends a form page’s write on to its form, which answers 503 beside it with Retry-After [R54]', async () => {
		verdict = 'unavailable'
		route = answersWith(503, {})
		const form = await post('/sign-in', { accept: 'text/html' })
		expect(reached).toEqual(['unavailable'])
		expect(form.status).toBe(503)
		expect(form.headers.get('retry-after')).toBe('5')
		expect(await form.text()).toBe('answered by the route')
	})

	it('answers APIs and data requests with a { code, message } 503 and Retry-After, never a bare { error } [R54]', async () => {
		verdict = 'unavailable'
		for (const response of [await post('/api/auth/sign-in/email'), await fetch(`${base}/_root.data`)]) {
			expect(response.status).toBe(503)
			expect(response.headers.get('retry-after')).toBe('5')
			expect(await response.json()).toEqual({ code: 'TEMPORARILY_UNAVAILABLE', message: expect.stringContaining('unavailable') })
		}
		expect(reached).toEqual([])
	})
})

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** The store's own limiter on each backend; Redis is required (Authentication fails closed without it). */
describe.each([
	['memory', {}],
	['redis', { REDIS_URL: SHARED_REDIS }],
])('the client a limit counts on the %s backend [R56]', (_name, backend) => {
	const real = createStoreLimiter(parseConfig({ ...backend, RATE_LIMIT_AUTHENTICATION: '5/60' }), (line) => expect.fail(line))
	let origin = ''
	let stop = () => undefined as void
	beforeAll(async () => {
		const app = express()
		// One trusted proxy, as TRUST_PROXY=1: its X-Forwarded-For names the client.
		app.set('trust proxy', 1)
		app.use(rateLimitMiddleware({ limiter: real, build, onDecision: () => undefined }))
		app.all('/{*path}', (_req, res) => void res.status(401).json({ code: 'INVALID_EMAIL_OR_PASSWORD' }))
		const server = app.listen(0, '127.0.0.1')
		await new Promise((resolve) => server.once('listening', resolve))
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
		stop = () => void server.close()
	})
	afterAll(async () => {
		stop()
		await real.close()
	})

	const signIn = (client: string) => fetch(`${origin}/api/auth/sign-in/email`, { method: 'POST', headers: { 'x-forwarded-for': client } })

	it('counts 24 addresses of one IPv6 /64 as one client, and an address of the next /64 as another [R56]', async () => {
		const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
		const statuses = []
		for (let i = 1; i <= 24; i++) statuses.push((await signIn(`${net}:${i.toString(16)}::${i}`)).status)
		expect(statuses).toEqual([...Array(5).fill(401), ...Array(19).fill(429)])
		const refused = await signIn(`${net}::ffff`)
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
		const [a, b, c, d] = net.split(':')
		expect((await signIn(`${a}:${b}:${c}:${(parseInt(d!, 16) ^ 1).toString(16)}::1`)).status).toBe(401)
	})

	it('counts IPv4 addresses one by one, however a dual-stack socket writes them [R56]', async () => {
		const base = `198.51.${randomBytes(1)[0]}`
		for (let i = 0; i < 5; i++) expect((await signIn(`${base}.7`)).status).toBe(401)
		expect((await signIn(`::ffff:${base}.7`)).status).toBe(429)
		expect((await signIn(`${base}.8`)).status).toBe(401)
	})
})
