/**
 * Issue 5 (hardening), over HTTP and in the browser: changing the password ends the
 * other sessions, common passwords are refused on the form, cookie-bearing writes
 * without Origin are refused, the admin plugin's API answers 404 even to an admin,
 * and /api/auth/* bodies are bounded.
 */
import { randomUUID } from 'node:crypto'
import { request as apiRequest } from '@playwright/test'
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

	test('a password change ends another browser’s session and keeps this one (issue 5.9, ASVS 7.4.3)', async ({ page, browser }) => {
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

	test('the sign-up form refuses a common password and says why (issue 5.8)', async ({ page }) => {
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

test('a cookie-bearing POST with no Origin, Sec-Fetch-Site or Referer is refused (issue 5.6)', async () => {
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

test('the admin plugin’s API answers 404 even to the Store Admin (issue 5.4)', async ({ request }) => {
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

test('/api/auth/* refuses an oversize body with 413 and a 20 MB name never lands (issue 5.2)', async ({ request }) => {
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

test.describe('what a new user notices (issue 5.11)', () => {
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
