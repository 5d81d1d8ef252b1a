import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/env.server'
import { CLIENT_IP_HEADER, nextNonce, rejectCrossSiteWrites, securityHeaders, stampClientIp } from './http.server'

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
		const app = express().use(...securityHeaders(parseConfig(env))).get('/', (_req, res) => res.end())
		const server = app.listen(0, '127.0.0.1')
		await new Promise((resolve) => server.once('listening', resolve))
		const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
		server.close()
		return response.headers.get('strict-transport-security')
	}

	it('sends HSTS only when the public URL is https, in any mode (issue 5.5)', async () => {
		const secret = 'q7Vd3L0s9PZx2mYt8KcR1wNf6HbJ4eUa5GiTo0Xp'
		expect(await hstsWith({ NODE_ENV: 'development' })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret, AUTH_URL: 'http://shop.example' })).toBeNull()
		expect(await hstsWith({ NODE_ENV: 'production', AUTH_SECRET: secret, APP_URL: 'https://shop.example' })).toMatch(/max-age=\d+/)
		expect(await hstsWith({ NODE_ENV: 'development', AUTH_URL: 'https://shop.example' })).toMatch(/max-age=\d+/)
	})
})

describe('CSP nonces from the pooled CSPRNG (issue 11)', () => {
	it('are 128-bit, base64 and never repeat, across several refills of the pool', () => {
		const nonces = Array.from({ length: 256 * 4 + 7 }, () => nextNonce())
		for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
		expect(nonces.every((nonce) => /^[A-Za-z0-9+/]{22}==$/.test(nonce))).toBe(true)
		expect(new Set(nonces).size).toBe(nonces.length)
	})
})

describe('cross-site writes are refused before any route runs', () => {
	const post = (headers: Record<string, string>) =>
		fetch(`${base}/sign-in`, { method: 'POST', headers, body: 'a=1' })

	it('accepts same-origin and header-less (non-browser, cookie-less) POSTs', async () => {
		expect((await post({ origin: 'https://shop.example' })).status).toBe(200)
		expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
		expect((await post({})).status).toBe(200)
	})

	it('refuses a foreign, null or look-alike Origin with 403, naming the expected origin (issue 5.10)', async () => {
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

	it('refuses a cookie-bearing POST with no Origin, no Sec-Fetch-Site and no same-origin Referer (issue 5.6)', async () => {
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
