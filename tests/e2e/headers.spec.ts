/**
 * Runtime security of every response: an enforced CSP whose only inline-script
 * allowance is the response's nonce, no framing, nosniff, a same-origin referrer
 * policy and HSTS in production, and cross-site writes refused before any route runs
 * (sign-in and sign-up are called server-side, so a foreign page could otherwise
 * sign a visitor in to an attacker's account).
 */
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { APIRequestContext, APIResponse } from '@playwright/test'
import { GENERIC_SIGN_IN_FAILURE, expect, registerShopper, serverOrigin, submitSignInForm, test } from './support/fixtures.ts'

function cspDirectives(header: string | undefined) {
	expect(header, 'Content-Security-Policy header').toBeTruthy()
	const directives = new Map<string, string[]>()
	for (const part of (header ?? '').split(';')) {
		const [name, ...values] = part.trim().split(/\s+/)
		if (name) directives.set(name.toLowerCase(), values)
	}
	return directives
}

function nonceOf(response: APIResponse): string {
	const scriptSrc = cspDirectives(response.headers()['content-security-policy']).get('script-src') ?? []
	const nonces = scriptSrc.filter((value) => value.startsWith("'nonce-"))
	expect(nonces, 'one nonce in script-src').toHaveLength(1)
	return nonces[0]!.slice("'nonce-".length, -1)
}

function expectSecurityHeaders(response: APIResponse, what: string) {
	const headers = response.headers()
	const csp = cspDirectives(headers['content-security-policy'])
	expect(csp.get('default-src'), what).toEqual(["'self'"])
	const scriptSrc = csp.get('script-src') ?? []
	expect(scriptSrc, what).toContain("'self'")
	expect(
		scriptSrc.filter((v) => v.startsWith("'nonce-")),
		what,
	).toHaveLength(1)
	for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:', 'data:']) {
		expect(scriptSrc, `${what}: script-src must not allow ${unsafe}`).not.toContain(unsafe)
	}
	expect(csp.get('object-src'), what).toEqual(["'none'"])
	expect(csp.get('frame-ancestors'), what).toEqual(["'none'"])
	expect(csp.get('base-uri'), what).toEqual(["'self'"])
	expect(csp.get('form-action'), what).toEqual(["'self'", 'https://checkout.stripe.com'])
	expect(headers['x-content-type-options'], what).toBe('nosniff')
	expect(headers['referrer-policy'], what).toBe('same-origin')
	expect(headers['x-frame-options']?.toUpperCase(), what).toBe('DENY')
	// The e2e store's public URL is http: HSTS there would lock browsers out.
	// app/security/http.server.test.ts proves it is sent for an https public URL.
	expect(headers['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined()
	expect(headers['x-powered-by'], what).toBeUndefined()
}

/** A real file of the client build, named in the home page's HTML. */
async function assetPath(request: APIRequestContext) {
	const html = await (await request.get('/')).text()
	const match = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(html)
	if (!match?.[1]) throw new Error('The home page names no /assets/*.js file')
	return match[1]
}

test.describe('security headers on every response', () => {
	test('on pages, a redirect and a data request', async ({ request }) => {
		for (const path of ['/', '/sign-in', '/sign-up']) {
			const response = await request.get(path)
			expect(response.status(), path).toBe(200)
			expect(response.headers()['content-type'], path).toContain('text/html')
			expectSecurityHeaders(response, path)
			expect(response.headers()['cache-control'], path).toContain('no-store')
		}
		const redirect = await request.get('/account', { maxRedirects: 0 })
		expect(redirect.status()).toBe(302)
		expectSecurityHeaders(redirect, 'redirect from /account')
		const data = await request.get('/admin/store.data', { maxRedirects: 0 })
		expect(data.status()).toBe(202)
		expectSecurityHeaders(data, '/admin/store.data')
	})

	test('on a static file under /assets', async ({ request }) => {
		const path = await assetPath(request)
		const response = await request.get(path)
		expect(response.status(), path).toBe(200)
		expect(response.headers()['content-type'], path).toMatch(/javascript/)
		expect(response.headers()['cache-control'], path).toContain('immutable')
		expectSecurityHeaders(response, path)
	})

	// static files are served from a list made at start (sirv), not by express.static.
	test('on a root static file (GET and HEAD), the health check and a cached catalog page', async ({ request }) => {
		for (const method of ['get', 'head'] as const) {
			const favicon = await request[method]('/favicon.svg')
			expect(favicon.status(), `${method} /favicon.svg`).toBe(200)
			expect(favicon.headers()['content-type'], method).toContain('image/svg+xml')
			expect(favicon.headers()['cache-control'], method).toContain('max-age=3600')
			expect(favicon.headers().etag, method).toBeTruthy()
			expectSecurityHeaders(favicon, `${method} /favicon.svg`)
		}
		const again = await request.get('/favicon.svg', { headers: { 'If-None-Match': (await request.get('/favicon.svg')).headers().etag ?? '' } })
		expect(again.status()).toBe(304)
		expectSecurityHeaders(again, '304 /favicon.svg')

		const health = await request.get('/healthz')
		expect(health.status()).toBe(200)
		expectSecurityHeaders(health, '/healthz')

		for (let i = 0; i < 2; i++) {
			const product = await request.get('/products/canvas-tote')
			expect(product.status()).toBe(200)
			expectSecurityHeaders(product, `product page, view ${i + 1}`)
			expect(product.headers()['cache-control']).toContain('no-store')
		}
	})

	test('a write to a static file path is never answered with the file', async ({ request }) => {
		const response = await request.post('/favicon.svg', { headers: { Origin: serverOrigin() } })
		expect(response.status()).toBeGreaterThanOrEqual(400)
		expect(response.headers()['content-type']).not.toContain('image/svg+xml')
		expectSecurityHeaders(response, 'POST /favicon.svg')
	})

	test('on a 404, a missing asset and a 403', async ({ request }) => {
		const page = await request.get(`/no-such-page-${randomUUID()}`)
		expect(page.status()).toBe(404)
		await expect(page.text()).resolves.toContain('Not found')
		expectSecurityHeaders(page, '404 page')

		const asset = await request.get(`/assets/missing-${randomUUID()}.js`)
		expect(asset.status()).toBe(404)
		expectSecurityHeaders(asset, 'missing asset')

		const refused = await request.post('/sign-in', {
			form: { email: 'x@example.com', password: 'x' },
			headers: { Origin: 'https://evil.example' },
		})
		expect(refused.status()).toBe(403)
		expectSecurityHeaders(refused, 'cross-site refusal')
	})
})

test('pages are compressed; a small JSON answer states its length and is sent as it is', async ({ request }) => {
	const page = await request.get('/', { headers: { 'Accept-Encoding': 'gzip' } })
	expect(page.status()).toBe(200)
	expect(page.headers()['content-encoding']).toBe('gzip')

	// A provider retries its deliveries: each small acknowledgement or refusal is not gzipped.
	const refusal = await request.get('/api/events/stripe', { headers: { 'Accept-Encoding': 'gzip' } })
	expect(refusal.status()).toBe(405)
	expect(refusal.headers()['content-encoding']).toBeUndefined()
	const body = await refusal.body()
	expect(refusal.headers()['content-length']).toBe(String(body.length))
	expect(JSON.parse(body.toString('utf8'))).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
})

test('the CSP nonce is fresh per response and every script carries it', async ({ request }) => {
	const first = await request.get('/')
	const second = await request.get('/sign-in')
	const nonce = nonceOf(first)
	expect(nonce).toMatch(/^[A-Za-z0-9+/]{20,}={0,2}$/)
	expect(nonceOf(second)).not.toBe(nonce)

	for (const [response, expected] of [
		[first, nonce],
		[second, nonceOf(second)],
	] as const) {
		const html = await response.text()
		const scripts = html.match(/<script\b[^>]*>/g) ?? []
		// The router's inline context and the module that boots the app, at least.
		expect(scripts.length).toBeGreaterThanOrEqual(2)
		for (const tag of scripts) {
			expect(tag, 'every <script> carries the nonce').toContain(`nonce="${expected}"`)
		}
		const preloads = html.match(/<link\b[^>]*rel="modulepreload"[^>]*>/g) ?? []
		expect(preloads.length).toBeGreaterThan(0)
		for (const tag of preloads) expect(tag).toContain(`nonce="${expected}"`)
	}
})

test('the page hydrates under the CSP and navigates client-side without violations', async ({ page }) => {
	const cspMessages: string[] = []
	const pageErrors: string[] = []
	page.on('console', (message) => {
		if (/content security policy/i.test(message.text())) cspMessages.push(message.text())
	})
	page.on('pageerror', (error) => pageErrors.push(error.message))
	await page.addInitScript(() => {
		const w = window as unknown as { __cspViolations: string[] }
		w.__cspViolations = []
		document.addEventListener('securitypolicyviolation', (event) => {
			w.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`)
		})
	})
	const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)

	await page.goto('/')
	// React attaches its fiber to DOM nodes only once it has hydrated them.
	await page.waitForFunction(
		() => {
			const link = document.querySelector('header a[href="/sign-in"]')
			return !!link && Object.keys(link).some((key) => key.startsWith('__reactFiber$'))
		},
		undefined,
		{ timeout: 10_000 },
	)
	await page.evaluate(() => {
		;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
	})
	const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true)

	let documentLoads = 0
	page.on('request', (r) => {
		if (r.resourceType() === 'document') documentLoads++
	})

	// A client-side navigation: the router fetches the route, no new document.
	await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click()
	await expect(page).toHaveURL('/sign-in')
	await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
	expect(await sameDocument()).toBe(true)

	// A JavaScript form submission (a fetch under connect-src 'self') renders the answer in place.
	await submitSignInForm(page, `nobody-${randomUUID()}@example.com`, 'not-the-password')
	await expect(page.getByRole('alert')).toHaveText(GENERIC_SIGN_IN_FAILURE)
	expect(await sameDocument()).toBe(true)

	await page.getByRole('link', { name: 'Create an account' }).click()
	await expect(page).toHaveURL('/sign-up')
	await expect(page.getByLabel('Password (8 to 128 characters)')).toBeVisible()
	expect(await sameDocument()).toBe(true)

	expect(documentLoads).toBe(0)
	expect(await violations()).toEqual([])
	expect(cspMessages).toEqual([])
	expect(pageErrors).toEqual([])
})

test('a page on another origin cannot frame the store (frame-ancestors, X-Frame-Options)', async ({ page }) => {
	// A real server on another local port: a different origin in the same address space,
	// so only the store's own headers can stop the framing.
	const framer = createServer((req, res) => {
		res.setHeader('Content-Type', 'text/html')
		if (req.url === '/own') return res.end('<!doctype html><h1>Framable page</h1>')
		res.end(`<!doctype html><title>framing</title>
<iframe id="own" src="/own"></iframe>
<iframe id="store" src="${serverOrigin()}/sign-in"></iframe>`)
	})
	await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve))
	try {
		const { port } = framer.address() as AddressInfo
		const storeAnswer = page.waitForEvent('requestfailed', (r) => r.url() === `${serverOrigin()}/sign-in`)
		await page.goto(`http://127.0.0.1:${port}/`)
		// Control: framing itself works here.
		await expect(page.frameLocator('#own').getByRole('heading', { name: 'Framable page' })).toBeVisible()
		// The store answered, and its response headers made the browser refuse the frame.
		expect((await storeAnswer).failure()?.errorText).toBe('net::ERR_BLOCKED_BY_RESPONSE')
		await expect(page.frameLocator('#store').getByRole('heading', { name: 'Sign in' })).toHaveCount(0)
	} finally {
		await new Promise((resolve) => framer.close(resolve))
	}
})

test.describe('cross-site writes', () => {
	test('a cross-site POST to /sign-in is refused with 403 and signs nobody in', async ({ request }) => {
		const shopper = await registerShopper()
		const form = { email: shopper.email, password: shopper.password, redirectTo: '' }

		const crossSite: Record<string, string>[] = [
			{ Origin: 'https://evil.example' },
			{ Origin: 'null' },
			{ Origin: `${serverOrigin()}.evil.example` },
			{ 'Sec-Fetch-Site': 'cross-site' },
			{ 'Sec-Fetch-Site': 'same-site' },
		]
		for (const headers of crossSite) {
			const what = JSON.stringify(headers)
			const response = await request.post('/sign-in', { form, headers, maxRedirects: 0 })
			expect(response.status(), what).toBe(403)
			expect(await response.text(), what).toContain('Cross-site request refused')
			expect(response.headers()['set-cookie'] ?? '', what).not.toContain('session_token')
		}

		for (const [path, body] of [
			['/sign-up', { name: 'Mallory', email: `mallory-${randomUUID()}@example.com`, password: 'mallory-password' }],
			['/sign-out', {}],
			['/admin/store', { name: 'Hijacked' }],
		] as const) {
			const response = await request.post(path, {
				form: body,
				headers: { Origin: 'https://evil.example' },
				maxRedirects: 0,
			})
			expect(response.status(), path).toBe(403)
		}
		const api = await request.post('/api/auth/sign-in/email', {
			data: { email: shopper.email, password: shopper.password },
			headers: { Origin: 'https://evil.example' },
		})
		expect(api.status()).toBe(403)
		expect(api.headers()['set-cookie'] ?? '').not.toContain('session_token')

		// Control: the same request from our own origin signs in.
		const sameOrigin = await request.post('/sign-in', {
			form,
			headers: { Origin: serverOrigin() },
			maxRedirects: 0,
		})
		expect(sameOrigin.status()).toBe(302)
		expect(sameOrigin.headers()['set-cookie']).toContain('better-auth.session_token=')
	})

	test('a foreign page auto-submitting the sign-in form in a browser gets 403 (login CSRF)', async ({ page, context }) => {
		const shopper = await registerShopper()
		const evil = 'http://evil.example/'
		await page.route(evil, (route) =>
			route.fulfill({
				contentType: 'text/html',
				body: `<!doctype html>
<form id="f" method="post" action="${serverOrigin()}/sign-in">
<input name="email" value="${shopper.email}"><input name="password" value="${shopper.password}">
<input name="redirectTo" value="">
</form><script>document.getElementById('f').submit()</script>`,
			}),
		)
		const answer = page.waitForResponse(`${serverOrigin()}/sign-in`)
		await page.goto(evil)
		const response = await answer
		expect(response.request().headers().origin).toBe('http://evil.example')
		expect(response.status()).toBe(403)
		await expect(page.locator('h1')).toHaveText('Cross-site request refused')
		// The refusal says where the store expects its forms from [R40].
		await expect(page.locator('body')).toContainText(serverOrigin())
		const cookies = await context.cookies(serverOrigin())
		expect(cookies.map((c) => c.name)).not.toContain('better-auth.session_token')
	})
})
