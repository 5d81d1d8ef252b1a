/**
 * Rate limits over HTTP, against servers of this spec's own with strict limits
 * (docs/security-model.md R51, R53-R56): the 429 contract on forms, data requests and APIs,
 * sign-in failures counted per account and client and per account from new browsers, a
 * browser that signed in before keeping its own budget, a spoofed X-Forwarded-For that changes
 * nothing, and the store while a private Redis is down or hung (the shared one on 6379 is
 * never stopped). With E2E_DATABASE=postgresql each store gets its own PostgreSQL database.
 */
import { expect, type Page, test } from '@playwright/test'
import { privateRedis } from '../helpers/redis.ts'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'

// Each test starts its own store (init and migrations first: slower on PostgreSQL).
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const startStore = (env: Record<string, string>) => startStoreProcess({ env: { RATE_LIMITS: 'on', ...env } })

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const formHeaders = (store: StoreProcess, client?: string) => ({
	origin: store.origin,
	'content-type': 'application/x-www-form-urlencoded',
	...(client ? { 'x-forwarded-for': client } : {}),
})

function signInForm(
	store: StoreProcess,
	{ password, email = store.admin.email, client, data = false }: { password: string; email?: string; client?: string; data?: boolean },
) {
	return fetch(`${store.origin}/sign-in${data ? '.data' : ''}`, {
		method: 'POST',
		redirect: 'manual',
		headers: formHeaders(store, client),
		body: form({ email, password, redirectTo: '' }),
	})
}

function signInApi(store: StoreProcess, { password, email = store.admin.email, client }: { password: string; email?: string; client?: string }) {
	return fetch(`${store.origin}/api/auth/sign-in/email`, {
		method: 'POST',
		headers: { origin: store.origin, 'content-type': 'application/json', ...(client ? { 'x-forwarded-for': client } : {}) },
		body: JSON.stringify({ email, password }),
	})
}

/** Exactly one value (fetch joins repeated headers with ", "), a whole number. */
function oneNumber(response: Response, name: string) {
	const value = response.headers.get(name)
	expect(value, `${name}: ${value}`).toMatch(/^\d+$/)
	return Number(value)
}

const hasSession = (response: Response) => response.headers.getSetCookie().some((cookie) => cookie.includes('session_token='))

test('a burst on the sign-in form and on /api/auth/sign-in/email reaches the 429 contract [R51]', async ({ page }) => {
	const store = await startStore({ RATE_LIMIT_AUTHENTICATION: '5/60', RATE_LIMIT_ACCOUNT: '1000/60' })
	try {
		const statuses: number[] = []
		let last: Response | undefined
		for (let i = 0; i < 7; i++) {
			last = await signInForm(store, { email: `nobody-${i}@example.com`, password: 'wrong-password' })
			statuses.push(last.status)
			if (i < 4) expect(last.headers.get('x-ratelimit-limit')).toBe('5')
		}
		expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
		expect(oneNumber(last!, 'retry-after')).toBeGreaterThanOrEqual(1)
		expect(oneNumber(last!, 'x-ratelimit-reset')).toBeGreaterThan(Date.now() / 1000)
		expect(last!.headers.get('x-ratelimit-remaining')).toBe('0')
		// The page shows it beside the form, not a raw error page.
		const html = await last!.text()
		expect(html).toContain('Too many attempts')
		expect(html).toContain('name="password"')

		// The data request JavaScript sends gets the same contract.
		const data = await signInForm(store, { password: 'wrong-password', data: true })
		expect(data.status).toBe(429)
		expect(oneNumber(data, 'retry-after')).toBeGreaterThanOrEqual(1)
		oneNumber(data, 'x-ratelimit-reset')

		// In the browser, the form says so beside the fields.
		await page.goto(`${store.origin}/sign-in`)
		await page.getByLabel('Email').fill(store.admin.email)
		await page.getByLabel('Password', { exact: true }).fill(store.admin.password)
		await page.getByRole('button', { name: 'Sign in' }).click()
		await expect(page.getByRole('alert')).toContainText('Too many attempts')
		await expect(page.getByLabel('Email')).toBeVisible()

		const api = await signInApi(store, { password: store.admin.password })
		expect(api.status).toBe(429)
		oneNumber(api, 'retry-after')
		oneNumber(api, 'x-ratelimit-reset')
		expect(api.headers.get('x-retry-after')).toBeNull()
		expect(await api.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
		expect(hasSession(api)).toBe(false)
		// Pages of another class are still served.
		expect((await fetch(`${store.origin}/`)).status).toBe(200)
	} finally {
		await store.stop()
	}
})

test.describe('nobody can lock the Store Admin out [R53]', () => {
	let store: StoreProcess
	// The store's own defaults (10 failures per account and client in 15 minutes, 20 Authentication
	// requests per address a minute), behind one trusted proxy.
	test.beforeAll(async () => {
		store = await startStore({ TRUST_PROXY: '1' })
	})
	test.afterAll(async () => {
		await store?.stop()
	})

	const ways = [
		{ via: 'the form', attempt: signInForm, signedIn: 302, clients: ['203.0.113.10', '198.51.100.20'] },
		{ via: '/api/auth/sign-in/email', attempt: signInApi, signedIn: 200, clients: ['203.0.113.11', '198.51.100.21'] },
	] as const
	for (const { via, attempt, signedIn, clients } of ways) {
		test(`fifty wrong passwords from one address, then the right one from another signs in at once, through ${via} [R53]`, async () => {
			const [failing, other] = clients
			const statuses = new Set<number>()
			for (let i = 0; i < 50; i++) statuses.add((await attempt(store, { password: `wrong-${i}`, client: failing })).status)
			expect([...statuses].sort()).toEqual([401, 429])
			const right = await attempt(store, { password: store.admin.password, client: other })
			expect(right.status).toBe(signedIn)
			expect(hasSession(right)).toBe(true)
			// The address that failed is still refused, even with the right password: its own failures.
			expect((await attempt(store, { password: store.admin.password, client: failing })).status).toBe(429)
		})
	}
})

test('a client that keeps failing on one account is refused with that window’s own headers, once each, on the form, its data request and the API [R51, R53]', async () => {
	const store = await startStore({ TRUST_PROXY: '1', RATE_LIMIT_AUTHENTICATION: '1000/60', RATE_LIMIT_ACCOUNT: '3/900' })
	try {
		const client = '203.0.113.30'
		const statuses = []
		for (let i = 0; i < 4; i++) statuses.push((await signInForm(store, { password: 'wrong-password', client })).status)
		expect(statuses).toEqual([401, 401, 401, 429])
		const refused = await signInForm(store, { password: 'wrong-password', client })
		// The account's 15-minute window, not the Authentication class's minute.
		expect(oneNumber(refused, 'retry-after')).toBeGreaterThan(800)
		expect(oneNumber(refused, 'x-ratelimit-reset')).toBeGreaterThan(Date.now() / 1000 + 800)
		expect(refused.headers.get('x-ratelimit-limit')).toBe('3')
		const html = await refused.text()
		expect(html).toMatch(/Too many attempts\. Please wait \d{3} seconds/)
		expect(html).toContain('name="password"')

		const data = await signInForm(store, { password: 'wrong-password', client, data: true })
		expect(data.status).toBe(429)
		expect(oneNumber(data, 'retry-after')).toBeGreaterThan(800)
		expect(oneNumber(data, 'x-ratelimit-reset')).toBeGreaterThan(Date.now() / 1000 + 800)

		const api = await signInApi(store, { password: store.admin.password, client })
		expect(api.status).toBe(429)
		expect(oneNumber(api, 'retry-after')).toBeGreaterThan(800)
		expect(oneNumber(api, 'x-ratelimit-reset')).toBeGreaterThan(Date.now() / 1000 + 800)
		expect(await api.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringContaining('Too many attempts') })
		expect(hasSession(api)).toBe(false)

		// Another account from the same client, and the same account from another client, are not affected.
		expect((await signInForm(store, { email: 'someone-else@example.com', password: 'wrong-password', client })).status).toBe(401)
		expect((await signInForm(store, { password: store.admin.password, client: '198.51.100.31' })).status).toBe(302)
	} finally {
		await store.stop()
	}
})

test('a hundred addresses guessing the admin’s password are capped; the admin’s browser signs in during the storm, a new one is told to wait [R55, R56]', async ({
	browser,
}) => {
	const store = await startStore({
		TRUST_PROXY: '1',
		RATE_LIMIT_AUTHENTICATION: '100000/60',
		RATE_LIMIT_ACCOUNT: '10/900',
		RATE_LIMIT_ACCOUNT_NEW_DEVICES: '30/3600',
	})
	const laptop = await browser.newContext()
	const fresh = await browser.newContext()
	try {
		const signIn = async (page: Page) => {
			await page.goto(`${store.origin}/sign-in`)
			await page.getByLabel('Email').fill(store.admin.email)
			await page.getByLabel('Password', { exact: true }).fill(store.admin.password)
			const answered = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/sign-in'))
			await page.getByRole('button', { name: 'Sign in' }).click()
			return answered
		}
		// Before the storm the admin signs in on their laptop, which keeps a device cookie: HttpOnly, signed.
		const page = await laptop.newPage()
		await signIn(page)
		await expect(page).toHaveURL(`${store.origin}/admin`)
		const device = (await laptop.cookies()).find((cookie) => cookie.name === 'storeDevice')
		expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
		await laptop.clearCookies({ name: /session_token/ })

		// A hundred addresses, one wrong password each, through the API; then 24 more from one IPv6 /64.
		const statuses = []
		for (let i = 1; i <= 100; i++) statuses.push((await signInApi(store, { password: `wrong-${i}`, client: `203.0.113.${i}` })).status)
		expect(statuses).toEqual([...Array(30).fill(401), ...Array(70).fill(429)])
		const sixtyFour = []
		for (let i = 1; i <= 24; i++)
			sixtyFour.push((await signInApi(store, { email: 'shopper@example.com', password: 'wrong', client: `2001:db8:7:9::${i}` })).status)
		expect(sixtyFour).toEqual([...Array(10).fill(401), ...Array(14).fill(429)])

		// The laptop signs in during the storm.
		await signIn(page)
		await expect(page).toHaveURL(`${store.origin}/admin`)

		// A browser the admin never used: the right password, and a clear answer to wait, with Retry-After.
		const other = await fresh.newPage()
		const refused = await signIn(other)
		expect(refused.status()).toBe(429)
		expect(Number(await refused.headerValue('retry-after'))).toBeGreaterThan(3000)
		await expect(other.getByRole('alert')).toContainText('sign in from a browser you have signed in with before')
		await expect(other).toHaveURL(/\/sign-in/)
		const api = await signInApi(store, { password: store.admin.password, client: '198.51.100.200' })
		expect(api.status).toBe(429)
		expect(oneNumber(api, 'retry-after')).toBeGreaterThan(3000)
		oneNumber(api, 'x-ratelimit-reset')
		expect(hasSession(api)).toBe(false)
	} finally {
		await Promise.all([laptop.close(), fresh.close()])
		await store.stop()
	}
})

test('a spoofed X-Forwarded-For with no trusted proxy does not reset the count', async () => {
	const store = await startStore({ TRUST_PROXY: '0', RATE_LIMIT_AUTHENTICATION: '3/60', RATE_LIMIT_ACCOUNT: '1000/60' })
	try {
		const statuses = []
		for (let i = 0; i < 5; i++) {
			statuses.push((await signInApi(store, { email: `x${i}@example.com`, password: 'wrong-password', client: `192.0.2.${i + 1}` })).status)
		}
		expect(statuses).toEqual([401, 401, 401, 429, 429])
	} finally {
		await store.stop()
	}
})

test('a limited checkout submit is refused with 429 before the action’s own logic, whatever the cart holds [R51]', async () => {
	const store = await startStore({ RATE_LIMIT_SENSITIVE: '1/60' })
	try {
		const submit = (path: string) =>
			fetch(`${store.origin}${path}`, { method: 'POST', redirect: 'manual', headers: formHeaders(store), body: form({ email: 'buyer@example.com' }) })
		await submit('/checkout')
		for (const path of ['/checkout', '/checkout.data']) {
			const refused = await submit(path)
			expect(refused.status, path).toBe(429)
			expect(oneNumber(refused, 'retry-after'), path).toBeGreaterThanOrEqual(1)
			expect(oneNumber(refused, 'x-ratelimit-reset'), path).toBeGreaterThan(Date.now() / 1000)
		}
		expect(await (await submit('/checkout')).text()).toContain('Too many attempts')
	} finally {
		await store.stop()
	}
})

test('a limited form post stays a 429 even when the page would redirect or fail afterwards [R51]', async () => {
	const store = await startStore({ RATE_LIMIT_AUTHENTICATION: '1/60', RATE_LIMIT_SENSITIVE: '1/60' })
	try {
		const post = (path: string, fields: Record<string, string>) =>
			fetch(`${store.origin}${path}`, { method: 'POST', redirect: 'manual', headers: formHeaders(store), body: form(fields) })
		// A guest at the password page is sent to sign-in; an unsubscribe link that is not valid is refused.
		const cases = [
			['/account/password', { currentPassword: 'x', newPassword: 'y' }],
			['/newsletter/unsubscribe?token=not-a-token', { token: 'not-a-token' }],
		] as const
		for (const [path, fields] of cases) {
			const first = await post(path, fields)
			expect(first.status, path).not.toBe(429)
			const refused = await post(path, fields)
			expect(refused.status, path).toBe(429)
			expect(oneNumber(refused, 'retry-after'), path).toBeGreaterThanOrEqual(1)
			expect(oneNumber(refused, 'x-ratelimit-reset'), path).toBeGreaterThan(Date.now() / 1000)
			expect(refused.headers.get('location'), path).toBeNull()
			expect(await refused.text(), path).toContain('Too many')
		}
	} finally {
		await store.stop()
	}
})

async function signInInBrowser(page: Page, store: StoreProcess) {
	await page.goto(`${store.origin}/sign-in`)
	await page.getByLabel('Email').fill(store.admin.email)
	await page.getByLabel('Password', { exact: true }).fill(store.admin.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

test('with Redis down at start, sign-in answers 503 beside the form with and without JavaScript, and shared limits start by themselves when Redis comes up [R54]', async ({
	page,
}) => {
	const redis = await privateRedis({ start: false })
	const store = await startStore({ REDIS_URL: redis.url })
	try {
		expect((await fetch(`${store.origin}/healthz`)).status).toBe(200)
		const refused = await signInForm(store, { password: store.admin.password })
		expect(refused.status).toBe(503)
		expect(refused.headers.get('retry-after')).toBe('5')
		const html = await refused.text()
		expect(html).toContain('briefly unavailable')
		expect(html).toContain('name="password"')
		expect(html).not.toContain('{"error"')

		await signInInBrowser(page, store)
		await expect(page.getByRole('alert')).toContainText('briefly unavailable')
		await expect(page.getByLabel('Email')).toBeVisible()

		const api = await signInApi(store, { password: store.admin.password })
		expect(api.status).toBe(503)
		expect(api.headers.get('retry-after')).toBe('5')
		expect(await api.json()).toMatchObject({ code: 'TEMPORARILY_UNAVAILABLE' })

		await redis.start()
		// Found by the store's own probe: no request is made until it says so.
		await expect.poll(() => store.stderr(), { timeout: 10_000 }).toContain('[rate-limit] Redis is answering again')
		expect((await signInForm(store, { password: store.admin.password })).status).toBe(302)
	} finally {
		await store.stop()
		await redis.kill()
	}
})

test('a hung Redis (SIGSTOP) is found by the store’s own probe and skipped while stopped; shared limits return by themselves [R54]', async () => {
	const redis = await privateRedis()
	const store = await startStore({ REDIS_URL: redis.url })
	try {
		// Ready means Redis answered the store: on a loaded machine the first connection can take
		// longer than /healthz does, and a sign-in before it is refused (fail closed, as above).
		await expect.poll(async () => (await fetch(`${store.origin}/readyz`)).status, { timeout: 15_000 }).toBe(200)
		expect((await signInForm(store, { password: store.admin.password })).status).toBe(302)
		// What the store logs from now on: a store whose first connection took longer than its first
		// probe has logged both lines below already, and they must not answer for this outage.
		const paused = store.stderr().length
		redis.pause()
		// No request is made until the store has noticed by itself.
		await expect.poll(() => store.stderr().slice(paused), { timeout: 10_000 }).toContain('[rate-limit] Redis unavailable')
		// Answered while Redis is still stopped: General from memory, sign-in refused with 503.
		expect((await fetch(`${store.origin}/healthz`)).status).toBe(200)
		expect((await fetch(`${store.origin}/`)).status).toBe(200)
		const refused = await signInForm(store, { password: store.admin.password })
		expect(refused.status).toBe(503)
		expect(refused.headers.get('retry-after')).toBe('5')
		const resumed = store.stderr().length
		redis.resume()
		await expect.poll(() => store.stderr().slice(resumed), { timeout: 10_000 }).toContain('[rate-limit] Redis is answering again')
		expect((await signInForm(store, { password: store.admin.password })).status).toBe(302)
	} finally {
		await store.stop()
		await redis.kill()
	}
})
