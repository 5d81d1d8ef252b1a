import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import routes from '../routes'
import { parseConfig } from '../config/env.server'
import { recordLogs } from '../../tests/helpers/log'
import {
	CLIENT_IP_HEADER,
	RESOURCE_ROUTE_METHODS,
	nextNonce,
	rejectCrossSiteWrites,
	rejectMalformedUrls,
	rejectUnhandledMethods,
	securityHeaders,
	stampClientIp,
} from './http.server'

const config = parseConfig({
	NODE_ENV: 'production',
	AUTH_SECRET: 'q7Vd3L0s9PZx2mYt8KcR1wNf6HbJ4eUa5GiTo0Xp',
	AUTH_URL: 'https://shop.example',
})

let base: string
let close: () => void

beforeAll(async () => {
	const app = express()
	app.disable('x-powered-by')
	app.use(...securityHeaders(config))
	app.use(rejectCrossSiteWrites(config))
	app.use(stampClientIp)
	app.all('/{*path}', (req, res) => {
		res.json({ ip: req.headers[CLIENT_IP_HEADER], nonce: res.locals.cspNonce })
	})
	const server = app.listen(0, '127.0.0.1')
	await new Promise((resolve) => server.once('listening', resolve))
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	close = () => server.close()
})
afterAll(() => close())

describe('security headers on every response', () => {
	it('enforces a CSP with a fresh per-request nonce and no framing', async () => {
		const [a, b] = await Promise.all([fetch(base), fetch(base)])
		const csp = a.headers.get('content-security-policy') ?? ''
		const { nonce } = (await a.json()) as { nonce: string }
		expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`)
		expect(csp).toContain("frame-ancestors 'none'")
		expect(csp).not.toContain('unsafe-inline')
		expect(a.headers.get('content-security-policy-report-only')).toBeNull()
		expect(((await b.json()) as { nonce: string }).nonce).not.toBe(nonce)
	})

	it('sends nosniff, a same-origin referrer policy, HSTS in production and no X-Powered-By', async () => {
		const response = await fetch(`${base}/x`)
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(response.headers.get('referrer-policy')).toBe('same-origin')
		expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
		expect(response.headers.get('x-powered-by')).toBeNull()
	})

	async function hstsWith(env: Record<string, string>) {
		const app = express()
			.use(...securityHeaders(parseConfig(env)))
			.get('/', (_req, res) => res.end())
		const server = app.listen(0, '127.0.0.1')
		await new Promise((resolve) => server.once('listening', resolve))
		const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
		server.close()
		return response.headers.get('strict-transport-security')
	}

	it('sends HSTS only when the public URL is https, in any mode', async () => {
		const secret = 'q7Vd3L0s9PZx2mYt8KcR1wNf6HbJ4eUa5GiTo0Xp'
		expect(await hstsWith({ NODE_ENV: 'development' })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret, AUTH_URL: 'http://shop.example' })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret, APP_URL: 'https://shop.example' })).toMatch(/max-age=\d+/)
		expect(await hstsWith({ NODE_ENV: 'development', AUTH_URL: 'https://shop.example' })).toMatch(/max-age=\d+/)
	})
})

describe('CSP nonces from the pooled CSPRNG', () => {
	it('are 128-bit, base64 and never repeat, across several refills of the pool', () => {
		const nonces = Array.from({ length: 256 * 4 + 7 }, () => nextNonce())
		for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
		expect(nonces.every((nonce) => /^[A-Za-z0-9+/]{22}==$/.test(nonce))).toBe(true)
		expect(new Set(nonces).size).toBe(nonces.length)
	})
})

describe('cross-site writes are refused before any route runs', () => {
	const post = (headers: Record<string, string>) => fetch(`${base}/sign-in`, { method: 'POST', headers, body: 'a=1' })

	it('accepts same-origin and header-less (non-browser, cookie-less) POSTs', async () => {
		expect((await post({ origin: 'https://shop.example' })).status).toBe(200)
		expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
		expect((await post({})).status).toBe(200)
	})

	it('refuses a foreign, null or look-alike Origin with 403, naming the expected origin [R40]', async () => {
		for (const origin of ['https://evil.example', 'null', 'https://shop.example.evil.example', 'http://shop.example']) {
			const response = await post({ origin, accept: 'text/html' })
			expect(response.status, origin).toBe(403)
			const page = await response.text()
			expect(page).toContain('Cross-site request refused')
			expect(page).toContain('https://shop.example')
		}
	})

	it('never reflects the sender’s Origin into the refusal page as markup', async () => {
		const response = await post({ origin: 'https://<script>alert(1)</script>.example', accept: 'text/html' })
		expect(response.status).toBe(403)
		expect(await response.text()).not.toContain('<script>')
	})

	it('refuses a cookie-bearing POST with no Origin, no Sec-Fetch-Site and no same-origin Referer', async () => {
		expect((await post({ cookie: 'better-auth.session_token=x' })).status).toBe(403)
		expect((await post({ cookie: 'guestId=x', referer: 'https://evil.example/page' })).status).toBe(403)
		expect((await post({ cookie: 'guestId=x', referer: 'not a url' })).status).toBe(403)
		// Control: the same request with a Referer from the store itself is a same-origin form.
		expect((await post({ cookie: 'guestId=x', referer: 'https://shop.example/sign-in' })).status).toBe(200)
	})

	it('refuses a cross-site POST that hides its Origin', async () => {
		expect((await post({ 'sec-fetch-site': 'cross-site' })).status).toBe(403)
		expect((await post({ 'sec-fetch-site': 'same-site' })).status).toBe(403)
	})

	it('lets GET through whatever its origin', async () => {
		const response = await fetch(base, { headers: { origin: 'https://evil.example' } })
		expect(response.status).toBe(200)
	})
})

describe('client address for rate limiting', () => {
	it('overwrites a client-supplied value with the address Express resolved', async () => {
		const response = await fetch(base, { headers: { [CLIENT_IP_HEADER]: '203.0.113.9' } })
		const { ip } = (await response.json()) as { ip: string }
		expect(ip).not.toBe('203.0.113.9')
		expect(ip).toMatch(/127\.0\.0\.1$/)
	})
})

/** A raw request: fetch refuses TRACE and would re-encode a malformed path. */
function raw(origin: string, method: string, path: string, headers: Record<string, string> = {}) {
	return new Promise<{ status: number; allow?: string; type?: string; body: string }>((resolve, reject) => {
		const request = httpRequest(`${origin}${path}`, { method, headers }, (response) => {
			let body = ''
			response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, type: response.headers['content-type'], body }))
		})
		request.on('error', reject)
		request.end()
	})
}

describe('methods a route does not handle and malformed URLs, refused before React Router runs', () => {
	const page = () => null
	const loader = () => null
	const action = () => null
	// The shape of a server build's route table: a page with an action, one without, a resource route.
	const build = {
		routes: {
			root: { id: 'root', path: '', module: { default: page, loader } },
			'routes/store/home': { id: 'routes/store/home', parentId: 'root', index: true, module: { default: page, loader } },
			'routes/store/cart': { id: 'routes/store/cart', parentId: 'root', path: 'cart', module: { default: page, loader, action } },
			'routes/store/newsletter': { id: 'routes/store/newsletter', parentId: 'root', path: 'newsletter', module: { default: page, action } },
			'routes/api/upload': { id: 'routes/api/upload', parentId: 'root', path: 'api/upload', module: { loader, action } },
			'routes/store/media': { id: 'routes/store/media', parentId: 'root', path: 'media/*', module: { loader, action } },
			'routes/store/not-found': { id: 'routes/store/not-found', parentId: 'root', path: '*', module: { default: page, loader, action } },
		},
	} as unknown as ServerBuild
	let origin: string
	let stop: () => void
	const reached: string[] = []

	beforeAll(async () => {
		const app = express()
		app.use(rejectMalformedUrls)
		app.use(rejectUnhandledMethods(build))
		app.all('/{*path}', (req, res) => {
			reached.push(`${req.method} ${req.path}`)
			res.send('route ran')
		})
		const server = app.listen(0, '127.0.0.1')
		await new Promise((resolve) => server.once('listening', resolve))
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
		stop = () => server.close()
	})
	afterAll(() => stop())

	it('answers 405 with Allow to PUT, PATCH, DELETE, TRACE and OPTIONS on a page, which never sees them [R42]', async () => {
		reached.length = 0
		const log = recordLogs()
		for (const method of ['PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS']) {
			expect(await raw(origin, method, '/cart'), method).toMatchObject({ status: 405, allow: 'GET, HEAD, POST' })
			expect(await raw(origin, method, '/'), method).toMatchObject({ status: 405, allow: 'GET, HEAD' })
		}
		// A page without an action refuses POST too, its single-fetch data URL included.
		expect(await raw(origin, 'POST', '/')).toMatchObject({ status: 405, allow: 'GET, HEAD' })
		expect(await raw(origin, 'PUT', '/cart.data')).toMatchObject({ status: 405, allow: 'GET, HEAD, POST' })
		expect(reached).toEqual([])
		expect(log.messages('warn')).toHaveLength(12)
		log.stop()
	})

	it('lets through what a route serves: GET, HEAD and POST to a page with an action, GET to one with only a page [R42]', async () => {
		reached.length = 0
		for (const [method, path] of [
			['GET', '/cart'],
			['HEAD', '/cart'],
			['POST', '/cart'],
			['POST', '/cart.data'],
			['GET', '/newsletter'],
			['POST', '/newsletter'],
			['GET', '/'],
			['POST', '/no/such/page'],
		]) {
			expect((await raw(origin, method!, path!)).status, `${method} ${path}`).toBe(200)
		}
		expect(reached).toHaveLength(8)
	})

	it('answers for a resource route only the methods it serves, in the one JSON error shape [R42]', async () => {
		const log = recordLogs()
		const upload = await raw(origin, 'GET', '/api/upload', { accept: 'text/html' })
		expect(upload).toMatchObject({ status: 405, allow: 'POST' })
		expect(upload.type).toMatch(/^application\/json/)
		expect(JSON.parse(upload.body)).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'This address answers POST, not GET.' })
		expect(await raw(origin, 'PUT', '/media/stores/a/uploads/b.png')).toMatchObject({ status: 405, allow: 'GET, HEAD, DELETE' })
		expect((await raw(origin, 'DELETE', '/media/stores/a/uploads/b.png')).status).toBe(200)
		log.stop()
	})

	it('answers 400 to a malformed percent-escape in the path or the query, with one log line and no stack [R42]', async () => {
		reached.length = 0
		const log = recordLogs()
		for (const path of ['/products/%E0%A4%A', '/cart?q=%E0%A4%A', '/cart?q=%', '/%FF', '/api/upload?x=%zz']) {
			const answer = await raw(origin, 'GET', path)
			expect(answer.status, path).toBe(400)
			expect(JSON.parse(answer.body), path).toEqual({ code: 'MALFORMED_URL', message: 'The address has a malformed percent-escape.' })
		}
		const page = await raw(origin, 'GET', '/products/%E0%A4%A', { accept: 'text/html' })
		expect(page.status).toBe(400)
		expect(page.body).toContain('<h1>Request refused</h1>')
		expect(reached).toEqual([])
		const lines = log.messages('warn')
		expect(lines).toHaveLength(6)
		expect(lines[0]).toBe('[store] 400 GET /products/%E0%A4%A: The address has a malformed percent-escape.')
		// The query stays out of the log: signed links carry their signature there.
		expect(lines[1]).toBe('[store] 400 GET /cart: The address has a malformed percent-escape.')
		for (const line of lines) expect(line).not.toMatch(/\n|\bat /)
		for (const record of log.records) expect(record).not.toHaveProperty('err')
		log.stop()
		// Well-formed escapes are not refused.
		expect((await raw(origin, 'GET', '/cart?q=caf%C3%A9%20au%2Blait')).status).toBe(200)
	})

	it('lists every resource route of the route table, and no page [R42]', () => {
		const files = (entries: ReadonlyArray<{ file: string; children?: unknown }>): string[] =>
			entries.flatMap((entry) => [entry.file, ...files((entry.children as typeof entries | undefined) ?? [])])
		const all = files(routes as never)
		const resources = all.filter((file) => file.endsWith('.ts')).map((file) => file.replace(/\.ts$/, ''))
		expect(resources.length).toBeGreaterThan(4)
		expect(Object.keys(RESOURCE_ROUTE_METHODS).sort()).toEqual(resources.sort())
	})
})
