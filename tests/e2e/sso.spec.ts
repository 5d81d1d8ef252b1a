/**
 * [R24] managed single sign-on for Store Admin, against a real OpenID provider
 * on loopback and a store server started with SVC_* set (tests/e2e/support/sso-store.ts).
 */
import { randomUUID } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { expect, newShopper, test } from './support/fixtures.ts'
import { PROVIDER_NAME, type SsoStore, blockExternalRequests, managedSignIn, startSsoStore } from './support/sso-store.ts'

test.describe.configure({ mode: 'serial' })

let store: SsoStore

test.beforeAll(async () => {
	test.setTimeout(120_000)
	store = await startSsoStore()
})
test.afterAll(async () => {
	await store?.stop()
})

function operator() {
	const id = randomUUID().slice(0, 8)
	return { login: `op-${id}`, email: `operator-${id}@corp.example.com` }
}

async function freshPage(browser: Browser): Promise<Page> {
	const context = await browser.newContext()
	const page = await context.newPage()
	await blockExternalRequests(page)
	return page
}

async function adminStatus(page: Page) {
	const response = await page.goto(`${store.origin}/admin`)
	return { status: response?.status(), url: new URL(page.url()).pathname }
}

test('an operator whose profile carries role admin reaches /admin [R24]', async ({ browser }) => {
	const page = await freshPage(browser)
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, roles: ['admin'] })
	await managedSignIn(page, store, op.login)
	await expect(page).toHaveURL(`${store.origin}/admin`)
	await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
	expect((await adminStatus(page)).status).toBe(200)
	await expect(page.getByText(`Signed in as ${op.email}`)).toBeVisible()
})

test('an operator granted only the store:admin scope reaches /admin [R24]', async ({ browser }) => {
	const page = await freshPage(browser)
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, grantedScopes: ['openid', 'profile', 'email', 'store:admin'] })
	await managedSignIn(page, store, op.login)
	await expect(page).toHaveURL(`${store.origin}/admin`)
	expect((await adminStatus(page)).status).toBe(200)
})

test('an operator with neither the role nor the scope signs in but gets 403 at /admin [R24]', async ({ browser }) => {
	const page = await freshPage(browser)
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, roles: ['editor'] })
	await managedSignIn(page, store, op.login, '/account')
	await expect(page).toHaveURL(`${store.origin}/account`)
	await expect(page.getByTestId('account-email')).toHaveText(op.email)
	expect((await adminStatus(page)).status).toBe(403)
})

test('an operator who lost the role loses admin at the next sign-in, and the old admin session ends [R24, R26]', async ({ browser }) => {
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, roles: ['admin'], grantedScopes: ['openid', 'profile', 'email', 'store:admin'] })
	const first = await freshPage(browser)
	await managedSignIn(first, store, op.login)
	await expect(first).toHaveURL(`${store.origin}/admin`)

	// The provider stops granting both; the store's accumulated account scope must not keep it.
	store.idp.setAccount(op.login, { email: op.email, roles: [] })
	const second = await freshPage(browser)
	await managedSignIn(second, store, op.login, '/account')
	await expect(second).toHaveURL(`${store.origin}/account`)
	expect((await adminStatus(second)).status).toBe(403)

	// The first browser's admin session was ended by the demotion.
	const before = await adminStatus(first)
	expect(before.url).toBe('/sign-in')
})

/**
 * Stops the browser at the provider's redirect back to the store and returns that callback URL,
 * unused (Playwright's own routing never sees redirect hops, so this asks Chromium directly).
 */
async function capturedCallback(page: Page, login: string): Promise<URL> {
	const cdp = await page.context().newCDPSession(page)
	let resolveUrl: (url: URL) => void = () => undefined
	const captured = new Promise<URL>((resolve) => (resolveUrl = resolve))
	cdp.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string } }) => {
		if (event.request.url.includes('/api/auth/callback/')) {
			resolveUrl(new URL(event.request.url))
			void cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' })
		} else {
			void cdp.send('Fetch.continueRequest', { requestId: event.requestId })
		}
	})
	await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/api/auth/callback/*', requestStage: 'Request' }] })
	await managedSignIn(page, store, login).catch(() => undefined)
	const url = await captured
	await cdp.send('Fetch.disable')
	await cdp.detach()
	return url
}

test('a tampered state is refused and signs nobody in [R24] (state check)', async ({ browser }) => {
	const page = await (await browser.newContext()).newPage()
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, roles: ['admin'] })
	const callback = await capturedCallback(page, op.login)
	const tampered = new URL(callback.href)
	tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`)
	await page.goto(tampered.href)
	await expect(page).toHaveURL(/\/sign-in\?error=/)
	await expect(page.getByText('Single sign-on could not be completed')).toBeVisible()
	expect((await page.context().cookies()).map((c) => c.name)).not.toContain('better-auth.session_token')
	expect((await adminStatus(page)).url).toBe('/sign-in')
})

test('an issuer mismatch in the callback is refused [R24] (issuer check)', async ({ browser }) => {
	const page = await (await browser.newContext()).newPage()
	const op = operator()
	store.idp.setAccount(op.login, { email: op.email, roles: ['admin'] })
	const callback = await capturedCallback(page, op.login)
	expect(callback.searchParams.get('iss')).toBe(store.idp.issuer)
	const tampered = new URL(callback.href)
	tampered.searchParams.set('iss', 'http://127.0.0.1:1/evil-issuer')
	await page.goto(tampered.href)
	await expect(page).toHaveURL(/\/sign-in\?error=issuer_mismatch/)
	expect((await page.context().cookies()).map((c) => c.name)).not.toContain('better-auth.session_token')
	expect((await adminStatus(page)).url).toBe('/sign-in')

	// The state was spent by the refused attempt: the untampered callback cannot be replayed after it.
	await page.goto(callback.href)
	await expect(page).toHaveURL(/\/sign-in\?error=/)
	expect((await adminStatus(page)).url).toBe('/sign-in')
})

test('an SSO identity never takes over an existing password account with the same email (linking)', async ({ browser }) => {
	const page = await freshPage(browser)
	const shopper = newShopper()
	const signUp = await page.request.post(`${store.origin}/sign-up`, {
		form: { name: shopper.name, email: shopper.email, password: shopper.password },
		headers: { origin: store.origin },
		maxRedirects: 0,
	})
	expect(signUp.status()).toBe(302)
	await page.context().clearCookies()

	// The provider asserts a verified email and the admin role; the local account is unverified.
	const login = `victim-${randomUUID().slice(0, 8)}`
	store.idp.setAccount(login, { email: shopper.email, emailVerified: true, roles: ['admin'] })
	await managedSignIn(page, store, login)
	await expect(page).toHaveURL(/\/sign-in\?error=account_not_linked/)
	await expect(page.getByText('does not take over an existing account')).toBeVisible()
	expect((await page.context().cookies()).map((c) => c.name)).not.toContain('better-auth.session_token')

	// The password account is untouched: its owner still signs in, and is still no admin.
	const again = await page.request.post(`${store.origin}/sign-in`, {
		form: { email: shopper.email, password: shopper.password, redirectTo: '' },
		headers: { origin: store.origin },
		maxRedirects: 0,
	})
	expect(again.status()).toBe(302)
	expect((await adminStatus(page)).status).toBe(403)
})

test('the sign-in page offers the provider, and no secret reaches the browser [R24, R13]', async ({ browser }) => {
	const page = await freshPage(browser)
	const response = await page.goto(`${store.origin}/sign-in`)
	const html = (await response?.text()) ?? ''
	await expect(page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` })).toBeVisible()
	expect(html).not.toContain(store.idp.clientSecret)
	expect(html).not.toContain(store.workloadCredential)
})

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('the managed sign-in button works as a plain form post [R24]', async ({ page }) => {
		await blockExternalRequests(page)
		const op = operator()
		store.idp.setAccount(op.login, { email: op.email, roles: ['admin'] })
		await managedSignIn(page, store, op.login)
		await expect(page).toHaveURL(`${store.origin}/admin`)
	})
})

test.describe('the workload credential [R24]', () => {
	const paths = ['/admin', '/admin/store', '/api/upload', '/api/auth/get-session', '/account']

	test('is refused as a bearer token and as a cookie on every route', async ({ playwright }) => {
		const client = await playwright.request.newContext()
		try {
			for (const path of paths) {
				const bearer = await client.get(`${store.origin}${path}`, {
					headers: { authorization: `Bearer ${store.workloadCredential}` },
					maxRedirects: 0,
				})
				expect(bearer.status(), `bearer ${path}`).toBe(401)
				expect(bearer.headers()['set-cookie'] ?? '').not.toContain('session_token')
				for (const name of ['better-auth.session_token', 'workload']) {
					const cookie = await client.get(`${store.origin}${path}`, {
						headers: { cookie: `${name}=${encodeURIComponent(store.workloadCredential)}` },
						maxRedirects: 0,
					})
					expect(cookie.status(), `cookie ${name} ${path}`).toBe(401)
				}
			}
			const upload = await client.post(`${store.origin}/api/upload`, {
				headers: { authorization: `Bearer ${store.workloadCredential}`, origin: store.origin },
				multipart: { file: { name: 'a.png', mimeType: 'image/png', buffer: Buffer.from('x') } },
			})
			expect(upload.status()).toBe(401)
		} finally {
			await client.dispose()
		}
	})

	test('is refused as a password and as an OAuth client secret, and creates no session', async ({ playwright }) => {
		const client = await playwright.request.newContext()
		try {
			const form = await client.post(`${store.origin}/sign-in`, {
				form: { email: 'workload@corp.example.com', password: store.workloadCredential, redirectTo: '' },
				headers: { origin: store.origin },
				maxRedirects: 0,
			})
			expect(form.status()).toBe(401)
			const api = await client.post(`${store.origin}/api/auth/sign-in/email`, {
				data: { email: 'workload@corp.example.com', password: store.workloadCredential },
				headers: { origin: store.origin },
			})
			expect(api.status()).toBe(401)
			expect((await api.json()).code).toBe('WORKLOAD_CREDENTIAL_REFUSED')
			const signUp = await client.post(`${store.origin}/api/auth/sign-up/email`, {
				data: { name: 'Workload', email: `wl-${randomUUID()}@corp.example.com`, password: store.workloadCredential },
				headers: { origin: store.origin },
			})
			expect(signUp.status()).toBe(401)
			const secret = await client.post(`${store.origin}/api/auth/callback/store-sso`, {
				form: { code: 'x', state: 'y', client_secret: store.workloadCredential },
				headers: { origin: store.origin },
				maxRedirects: 0,
			})
			expect(secret.status()).toBe(401)
			expect((await client.storageState()).cookies.map((c) => c.name)).not.toContain('better-auth.session_token')
		} finally {
			await client.dispose()
		}
	})
})

test('with managed sign-in off (the main server), there is no button and the callback is 404 [R24]', async ({ page, request }) => {
	await page.goto('/sign-in')
	await expect(page.getByRole('button', { name: /Sign in with/ })).toHaveCount(0)
	for (const path of ['/api/auth/callback/store-sso', '/api/auth/callback/google', '/api/auth/callback/github']) {
		const response = await request.get(`${path}?code=x&state=y`, { maxRedirects: 0 })
		expect(response.status(), path).toBe(404)
	}
	const start = await request.post('/sign-in/sso', { form: { redirectTo: '' }, maxRedirects: 0 })
	expect(start.status()).toBe(404)
})
