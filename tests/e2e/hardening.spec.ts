/**
 * over HTTP and in the browser: changing the password ends the
 * other sessions, common passwords are refused on the form, cookie-bearing writes
 * without Origin are refused, the admin plugin's API answers 404 even to an admin,
 * and /api/auth/* bodies are bounded.
 */
import { randomUUID } from 'node:crypto'
import { Agent, request as httpRequest } from 'node:http'
import { request as apiRequest } from '@playwright/test'
import { cookieHeader } from '../helpers/http.ts'
import { startStoreProcess, type StoreProcess } from './support/store-process.ts'
import { linesWithStacks, logMessages } from './support/server-log.ts'
import {
	ADMIN_EMAIL,
	ADMIN_PASSWORD,
	expect,
	newShopper,
	registerShopper,
	serverOrigin,
	signIn,
	submitSignInForm,
	submitSignUpForm,
	test,
} from './support/fixtures.ts'

test.describe('with JavaScript disabled', () => {
	test.use({ javaScriptEnabled: false })

	test('a password change ends another browser’s session and keeps this one [R26] (ASVS 7.4.3)', async ({ page, browser }) => {
		const shopper = await registerShopper()
		// Another browser, signed in as the same shopper.
		const other = await browser.newContext({ javaScriptEnabled: false })
		const otherPage = await other.newPage()
		await otherPage.goto('/sign-in')
		await submitSignInForm(otherPage, shopper.email, shopper.password)
		await expect(otherPage).toHaveURL('/account')

		await page.goto('/sign-in?redirectTo=%2Faccount%2Fpassword')
		await submitSignInForm(page, shopper.email, shopper.password)
		await expect(page).toHaveURL('/account/password')

		// A wrong current password and a common new one are refused with reasons.
		await page.getByLabel('Current password').fill('not-my-password')
		await page.getByLabel('New password (8 to 128 characters)').fill(`new-${randomUUID()}`)
		await page.getByRole('button', { name: 'Change password' }).click()
		await expect(page.getByText('This is not your current password.')).toBeVisible()
		await page.getByLabel('Current password').fill(shopper.password)
		await page.getByLabel('New password (8 to 128 characters)').fill('password123')
		await page.getByRole('button', { name: 'Change password' }).click()
		await expect(page.getByText(/Choose a stronger password/)).toBeVisible()

		const newPassword = `changed-${randomUUID()}`
		await page.getByLabel('Current password').fill(shopper.password)
		await page.getByLabel('New password (8 to 128 characters)').fill(newPassword)
		await page.getByRole('button', { name: 'Change password' }).click()
		await expect(page).toHaveURL('/account')
		await expect(page.getByTestId('flash')).toContainText('Password changed')
		// Shown once: a reload no longer shows it.
		await page.reload()
		await expect(page.getByTestId('flash')).toHaveCount(0)
		await expect(page.getByTestId('account-email')).toHaveText(shopper.email)

		// The other browser is signed out.
		await otherPage.goto('/account')
		await expect(otherPage).toHaveURL('/sign-in?redirectTo=%2Faccount')
		// The old password no longer works; the new one does.
		await submitSignInForm(otherPage, shopper.email, shopper.password)
		await expect(otherPage.getByRole('alert')).toHaveText('Invalid email or password.')
		await submitSignInForm(otherPage, shopper.email, newPassword)
		await expect(otherPage).toHaveURL('/account')
		await other.close()
	})

	test('the sign-up form refuses a common password and says why', async ({ page }) => {
		const shopper = { ...newShopper(), password: 'iloveyou2024' }
		await page.goto('/sign-up')
		const answer = page.waitForResponse((r) => r.request().method() === 'POST')
		await submitSignUpForm(page, shopper)
		expect((await answer).status()).toBe(400)
		await expect(page.getByText(/Choose a stronger password\. .*common/)).toBeVisible()
		// Nothing was created: the same email can still register with a strong password.
		await submitSignUpForm(page, { ...shopper, password: `strong-${randomUUID()}` })
		await expect(page).toHaveURL('/account')
	})
})

test('a cookie-bearing POST with no Origin, Sec-Fetch-Site or Referer is refused', async () => {
	const shopper = newShopper()
	// A client with the store's cookies but no browser metadata at all.
	const bare = await apiRequest.newContext({ baseURL: serverOrigin() })
	try {
		await signIn(bare, (await registerShopper(shopper)).email, shopper.password)
		const renamed = `Renamed ${randomUUID().slice(0, 8)}`
		const refused = await bare.post('/account', { form: { name: renamed }, maxRedirects: 0 })
		expect(refused.status()).toBe(403)
		const samePage = await bare.post('/account', {
			form: { name: renamed },
			headers: { Referer: `${serverOrigin()}/account` },
			maxRedirects: 0,
		})
		expect(samePage.status()).toBe(302)
		const account = await (await bare.get('/account')).text()
		expect(account).toContain(renamed)
	} finally {
		await bare.dispose()
	}
	// Control: a POST with no cookie at all is a non-browser client with nothing to forge.
	const anonymous = await apiRequest.newContext({ baseURL: serverOrigin() })
	try {
		const answer = await anonymous.post('/sign-in', {
			form: { email: shopper.email, password: 'wrong-password-x' },
			maxRedirects: 0,
		})
		expect(answer.status()).toBe(401)
	} finally {
		await anonymous.dispose()
	}
})

test('the admin plugin’s API answers 404 even to the Store Admin [R6]', async ({ request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const victim = await registerShopper()
	for (const [method, path, data] of [
		['POST', '/api/auth/admin/create-user', { email: `x-${randomUUID()}@example.com`, password: `p-${randomUUID()}`, name: 'x', role: 'admin' }],
		['POST', '/api/auth/admin/set-role', { userId: 'any', role: 'admin' }],
		['POST', '/api/auth/admin/impersonate-user', { userId: 'any' }],
		['POST', '/api/auth/admin/set-user-password', { userId: 'any', newPassword: `p-${randomUUID()}` }],
		['POST', '/api/auth/admin/remove-user', { userId: 'any' }],
		['GET', '/api/auth/admin/list-users', undefined],
		['GET', '/api/auth/Admin/List-Users', undefined],
	] as const) {
		const response = method === 'GET' ? await request.get(path) : await request.post(path, { data })
		expect(response.status(), `${method} ${path}`).toBe(404)
	}
	// The shopper is untouched and can still sign in.
	const client = await apiRequest.newContext({ baseURL: serverOrigin() })
	await signIn(client, victim.email, victim.password)
	await client.dispose()
})

test('/api/auth/* refuses an oversize body with 413 and a 20 MB name never lands [R43]', async ({ request }) => {
	const shopper = newShopper()
	const response = await request.post('/api/auth/sign-up/email', {
		data: { name: 'x'.repeat(20 * 1024 * 1024), email: shopper.email, password: shopper.password },
	})
	expect(response.status()).toBe(413)
	const tooLong = await request.post('/api/auth/sign-up/email', {
		data: { name: 'x'.repeat(81), email: shopper.email, password: shopper.password },
	})
	expect(tooLong.status()).toBe(400)
	// The email is still free: neither attempt created the account.
	const ok = await request.post('/api/auth/sign-up/email', {
		data: { name: 'Fine', email: shopper.email, password: shopper.password },
	})
	expect(ok.status()).toBe(200)
})

test('an oversize body, declared or streamed, is answered 413 on a kept-alive connection, and the next request on it is answered at once [R43]', async () => {
	const origin = new URL(serverOrigin())
	const agent = new Agent({ keepAlive: true, maxSockets: 1 })
	const big = Buffer.alloc(600 * 1024, 'x')
	/** POSTs `big` on the one kept-alive connection, with its length declared or streamed in pieces. */
	const post = (path: string, declared: boolean) =>
		new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
			const sent = httpRequest(
				{
					agent,
					host: origin.hostname,
					port: origin.port,
					path,
					method: 'POST',
					headers: {
						'content-type': path.startsWith('/api/auth') ? 'application/json' : 'application/x-www-form-urlencoded',
						origin: origin.origin,
						...(declared ? { 'content-length': String(big.length) } : {}),
					},
					timeout: 10_000,
				},
				(answer) => {
					answer.resume()
					answer.on('end', () => resolve({ status: answer.statusCode ?? 0, connection: answer.headers.connection }))
				},
			)
			sent.on('timeout', () => sent.destroy(new Error(`${path}: no answer in 10 s`)))
			sent.on('error', reject)
			if (declared) sent.end(big)
			else {
				for (let at = 0; at < big.length; at += 64 * 1024) sent.write(big.subarray(at, at + 64 * 1024))
				sent.end()
			}
		})
	try {
		for (const path of ['/api/auth/sign-in/email', '/sign-in', '/api/events/stripe']) {
			for (const declared of [true, false]) {
				expect({ path, declared, ...(await post(path, declared)) }).toEqual({ path, declared, status: 413, connection: 'keep-alive' })
			}
		}
		const next = await fetch(`${serverOrigin()}/healthz`)
		expect(next.status).toBe(200)
	} finally {
		agent.destroy()
	}
})

test.describe('what a new user notices', () => {
	test('the home page is titled with the Store’s name; 403 and 404 pages have titles', async ({ page, customer }) => {
		expect(customer.email).toContain('@')
		await page.goto('/')
		const storeName = (await page.locator('a.brand').textContent())?.trim() ?? ''
		expect(storeName.length).toBeGreaterThan(0)
		await expect(page).toHaveTitle(storeName)
		await page.goto(`/no-such-page-${randomUUID()}`)
		await expect(page).toHaveTitle(`Not found · ${storeName}`)
		await page.goto('/admin')
		await expect(page).toHaveTitle(/^Forbidden/)
	})

	test('Store Admin fits a 390 px phone screen without sideways scrolling, and saving shows a notice', async ({ browser }) => {
		const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
		const page = await context.newPage()
		await page.goto('/sign-in?redirectTo=%2Fadmin%2Fstore')
		await page.getByLabel('Email').fill(ADMIN_EMAIL)
		await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD)
		await page.getByRole('button', { name: 'Sign in' }).click()
		await expect(page).toHaveURL('/admin/store')
		for (const path of ['/admin', '/admin/store']) {
			await page.goto(path)
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
			expect(overflow, path).toBeLessThanOrEqual(0)
		}
		const current = await page.getByLabel('Store name').inputValue()
		await page.getByRole('button', { name: 'Save' }).click()
		await expect(page.getByTestId('flash')).toHaveText('Store profile saved.')
		await expect(page.getByLabel('Store name')).toHaveValue(current)
		await context.close()
	})
})

/** A request as sent on the wire: fetch refuses TRACE and would re-encode a malformed path. */
function raw(origin: string, method: string, path: string, { headers = {}, body }: { headers?: Record<string, string>; body?: string } = {}) {
	return new Promise<{ status: number; allow?: string; body: string }>((resolve, reject) => {
		// Content-Length always: Node sends a DELETE's body unframed otherwise.
		const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }
		const request = httpRequest(`${origin}${path}`, { method, headers: { ...headers, ...length } }, (response) => {
			let text = ''
			response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body: text }))
		})
		request.on('error', reject)
		request.end(body)
	})
}

const PAGE = 'GET, HEAD'
const FORM = 'GET, HEAD, POST'
/** Every page of app/routes.ts at an address it answers, and the methods it serves (read from its module). */
const PAGES: ReadonlyArray<[string, string]> = [
	['/', PAGE],
	['/products/any-product', FORM],
	['/search', PAGE],
	['/collections', PAGE],
	['/collections/any-collection', PAGE],
	['/cart', FORM],
	['/checkout', FORM],
	['/orders/any-token', FORM],
	['/newsletter', FORM],
	['/newsletter/unsubscribe', FORM],
	['/newsletter/confirm', FORM],
	['/sign-up', FORM],
	['/forgot-password', FORM],
	['/reset-password', FORM],
	['/sign-in', FORM],
	['/sign-in/sso', FORM],
	['/sign-in/two-factor', FORM],
	['/sign-out', FORM],
	['/account', FORM],
	['/account/password', FORM],
	['/account/security', FORM],
	['/account/orders', PAGE],
	['/account/orders/1001', PAGE],
	['/admin', PAGE],
	['/admin/store', FORM],
	['/admin/activity', PAGE],
	['/admin/products', PAGE],
	['/admin/products/new', FORM],
	['/admin/products/any-id', FORM],
	['/admin/orders', PAGE],
	['/admin/orders/1001', FORM],
	['/admin/customers', PAGE],
	['/admin/customers/any-id', PAGE],
	['/admin/uploads', FORM],
	['/admin/events', FORM],
	['/admin/connections', FORM],
	['/admin/email', FORM],
	['/admin/newsletter', PAGE],
	['/admin/reviews', FORM],
	['/admin/collections', FORM],
	['/admin/collections/any-id', FORM],
	['/no-such-page', FORM],
]
/** The APIs, each with a method it does not serve. */
const APIS: ReadonlyArray<[string, string, string]> = [
	['/api/auth/get-session', 'HEAD', 'GET, POST'],
	['/api/auth/sign-in/email', 'PUT', 'GET, POST'],
	['/api/upload', 'GET', 'POST'],
	['/api/events/stripe', 'GET', 'POST'],
	['/media/stores/s/uploads/0123456789abcdef0123456789abcdef.png', 'PUT', 'GET, HEAD, DELETE'],
	['/healthz', 'POST', 'GET, HEAD'],
	['/readyz', 'DELETE', 'GET, HEAD'],
]

test.describe('methods a route does not handle and malformed requests [R42]', () => {
	test.describe.configure({ mode: 'serial' })
	let store: StoreProcess
	let adminCookie: string
	test.beforeAll(async () => {
		// A store of its own (init, then the server), so its log can be read.
		test.setTimeout(120_000)
		store = await startStoreProcess()
		const signedIn = await fetch(`${store.origin}/sign-in`, {
			method: 'POST',
			headers: { Origin: store.origin, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ email: store.admin.email, password: store.admin.password, redirectTo: '' }),
			redirect: 'manual',
		})
		expect(signedIn.status).toBe(302)
		adminCookie = cookieHeader(signedIn.headers)
	})
	test.afterAll(async () => {
		await store?.stop()
	})

	const storeName = async () => /<a class="brand" href="\/"[^>]*>([^<]*)<\/a>/.exec(await (await fetch(`${store.origin}/`)).text())?.[1]

	test('every page answers PUT, PATCH, DELETE and TRACE with 405 and its Allow, as the Store Admin too, and nothing changes [R42]', async () => {
		const before = await storeName()
		expect(before).toBeTruthy()
		const admin = { Cookie: adminCookie, Origin: store.origin, 'Content-Type': 'application/x-www-form-urlencoded' }
		const renamed = `Renamed ${randomUUID().slice(0, 8)}`
		let refused = 0
		for (const [path, allow] of PAGES) {
			for (const method of ['PUT', 'PATCH', 'DELETE', 'TRACE']) {
				const answer = await raw(store.origin, method, path, {
					headers: admin,
					body: method === 'TRACE' ? undefined : new URLSearchParams({ name: renamed }).toString(),
				})
				expect({ status: answer.status, allow: answer.allow }, `${method} ${path}`).toEqual({ status: 405, allow })
				refused += 1
			}
		}
		// A page without an action refuses POST as well.
		expect(await raw(store.origin, 'POST', '/admin', { headers: admin, body: 'name=x' })).toMatchObject({ status: 405, allow: PAGE })
		refused += 1
		for (const [path, method, allow] of APIS) {
			const answer = await raw(store.origin, method, path, { headers: admin })
			expect({ status: answer.status, allow: answer.allow }, `${method} ${path}`).toEqual({ status: 405, allow })
			if (method !== 'HEAD')
				expect(JSON.parse(answer.body), `${method} ${path}`).toEqual({ code: 'METHOD_NOT_ALLOWED', message: `This address answers ${allow}, not ${method}.` })
			refused += 1
		}
		// DELETE /admin/store with a new name used to run the save action: the name stays.
		expect(await storeName()).toBe(before)
		const settings = await (await fetch(`${store.origin}/admin/store`, { headers: { Cookie: adminCookie } })).text()
		expect(settings).not.toContain(renamed)
		// Control: the same session may still save with POST.
		const saved = await raw(store.origin, 'POST', '/admin/store', { headers: admin, body: new URLSearchParams({ name: before! }).toString() })
		expect(saved.status).toBe(302)
		// One line for each refusal, and no stack trace anywhere.
		// (The log arrives over a pipe, possibly after the answer.)
		await expect.poll(() => logMessages(store.stderr()).filter((line) => line.startsWith('[store] 405 ')).length).toBe(refused)
		expect(logMessages(store.stderr())).toContain('[store] 405 TRACE /sign-in: This address answers GET, HEAD, POST, not TRACE.')
		expect(linesWithStacks(store.stderr())).toEqual([])
	})

	test('a malformed percent-escape in the path or the query answers 400, with one log line and no stack [R42]', async () => {
		const paths = ['/products/%E0%A4%A', '/products/any-product?q=%E0%A4%A', '/assets/%E0%A4%A', '/api/auth/get-session?x=%zz', '/%FF']
		for (const path of paths) {
			const answer = await raw(store.origin, 'GET', path, { headers: { Accept: 'application/json' } })
			expect(answer.status, path).toBe(400)
			expect(JSON.parse(answer.body), path).toEqual({ code: 'MALFORMED_URL', message: 'The address has a malformed percent-escape.' })
		}
		const page = await raw(store.origin, 'GET', '/products/%E0%A4%A', { headers: { Accept: 'text/html' } })
		expect(page.status).toBe(400)
		expect(page.body).toContain('malformed percent-escape')
		await expect.poll(() => logMessages(store.stderr()).filter((line) => line.startsWith('[store] 400 ')).length).toBe(paths.length + 1)
		expect(logMessages(store.stderr())).toContain('[store] 400 GET /products/%E0%A4%A: The address has a malformed percent-escape.')
		expect(linesWithStacks(store.stderr())).toEqual([])
		expect(store.stderr()).not.toContain('could not be decoded')
	})
})
