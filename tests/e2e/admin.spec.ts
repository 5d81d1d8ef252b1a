/**
 * [R5] Store Admin at /admin. Anonymous visitors are sent to sign-in,
 * signed-in Customers are refused, and identity and Store scope come from the
 * session, never from the request body.
 *
 * The tests of this file run in order in one worker (fullyParallel is off), and
 * no other file reads or writes the Store name, so they can compare it before and after.
 */
import { randomUUID } from 'node:crypto'
import type { APIRequestContext, Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, placeOrder, publicStoreName, serverOrigin, signIn, signUp, submitSignInForm, test } from './support/fixtures.ts'

const ADMIN_DENIED = 'Store Admin is for administrators only.'

async function signInAsAdmin(page: Page) {
	await page.goto('/sign-in')
	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(page).toHaveURL('/admin')
}

test('an admin lands in Store Admin after signing in, a customer on their account, and a password change returns where it was asked from', async ({
	page,
	browser,
}) => {
	await signInAsAdmin(page)
	await page.goto('/sign-in')
	await expect(page).toHaveURL('/admin')
	await expect(page.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/account/password?redirectTo=%2Fadmin')

	const context = await browser.newContext()
	const shopper = await context.newPage()
	const customer = await signUp(shopper.request)
	await shopper.goto('/sign-in')
	await expect(shopper).toHaveURL('/account')
	await shopper.goto('/account/password?redirectTo=%2Faccount%2Forders')
	await shopper.getByLabel('Current password').fill(customer.password)
	await shopper.getByLabel(/^New password/).fill(`${customer.password}-Changed-9`)
	await shopper.getByRole('button', { name: 'Change password' }).click()
	await expect(shopper).toHaveURL('/account/orders')
	await expect(shopper.getByTestId('flash')).toContainText('Password changed')
	await context.close()
})

test('the currency is fixed once the Store has an Order: shown read-only, and a forged change is refused with 409, changing nothing [R118]', async ({
	page,
	browser,
}) => {
	const buyer = await browser.newPage()
	await placeOrder(buyer)
	await buyer.close()
	await signInAsAdmin(page)
	await page.goto('/admin/store')
	await expect(page.getByLabel('Currency')).toBeDisabled()
	await expect(page.getByLabel('Currency')).toHaveValue('USD')
	await expect(page.getByTestId('currency-hint')).toContainText('Fixed: the store has taken orders in this currency.')

	const name = await page.getByLabel('Store name').inputValue()
	for (const currency of ['GBP', 'JPY', 'usd']) {
		const forged = await page.request.post('/admin/store', {
			form: { name: `${name} changed`, currency },
			headers: { origin: serverOrigin() },
			maxRedirects: 0,
		})
		expect(forged.status(), currency).toBe(currency === 'GBP' ? 409 : 400)
	}
	await page.goto('/products/field-notebook')
	await expect(page.locator('.product-price')).toContainText('$')
	expect(await publicStoreName()).toBe(name)
})

function uniqueStoreName(prefix = 'Shop') {
	return `${prefix} ${randomUUID().slice(0, 8)}`
}

test('an unauthenticated visit to /admin goes to sign-in, and the seeded admin comes back to /admin [R5, R23]', async ({ page, request }) => {
	const direct = await request.get('/admin', { maxRedirects: 0 })
	expect(direct.status()).toBe(302)
	expect(direct.headers().location).toBe('/sign-in?redirectTo=%2Fadmin')
	expect(await direct.text()).not.toContain(ADMIN_EMAIL)

	await page.goto('/admin')
	await expect(page).toHaveURL('/sign-in?redirectTo=%2Fadmin')
	await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()

	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(page).toHaveURL('/admin')
	await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
	const nav = page.getByRole('navigation', { name: 'Store Admin' })
	await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible()
	await expect(nav.getByRole('link', { name: 'Store profile' })).toBeVisible()
	await expect(page.getByText(`Signed in as ${ADMIN_EMAIL}`)).toBeVisible()
	await expect(page.getByRole('banner').locator('a[href="/admin"]')).toHaveText('Store Admin')

	// Deeper admin pages come back to where the visitor was going, too.
	await page.context().clearCookies()
	await page.goto('/admin/store')
	await expect(page).toHaveURL('/sign-in?redirectTo=%2Fadmin%2Fstore')
	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(page).toHaveURL('/admin/store')
	await expect(page.getByLabel('Store name')).toBeVisible()
})

test('the admin renames the Store and every visitor sees the new name in the header [R5]', async ({ page, browser }) => {
	const newName = uniqueStoreName()
	await signInAsAdmin(page)
	await page.getByRole('banner').locator('a[href="/admin"]').click()
	await expect(page).toHaveURL('/admin')
	await page.getByRole('navigation', { name: 'Store Admin' }).getByRole('link', { name: 'Store profile' }).click()
	await expect(page).toHaveURL('/admin/store')

	await page.getByLabel('Store name').fill(newName)
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL('/admin/store')
	await expect(page.getByRole('banner').getByRole('link', { name: newName, exact: true })).toBeVisible()
	await page.reload()
	await expect(page.getByLabel('Store name')).toHaveValue(newName)

	// An anonymous visitor and a Customer see it too.
	const guest = await browser.newContext()
	const guestPage = await guest.newPage()
	await guestPage.goto('/')
	await expect(guestPage.getByRole('banner').getByRole('link', { name: newName, exact: true })).toBeVisible()
	await expect(guestPage.getByRole('heading', { level: 1, name: newName, exact: true })).toBeVisible()
	await guest.close()

	const shopper = await browser.newContext()
	await signUp(shopper.request)
	const shopperPage = await shopper.newPage()
	await shopperPage.goto('/account')
	await expect(shopperPage.getByRole('banner').getByRole('link', { name: newName, exact: true })).toBeVisible()
	await shopper.close()

	expect(await publicStoreName()).toBe(newName)
})

test('a signed-in Customer gets the 403 page on /admin and /admin/store [R5]', async ({ page, customer }) => {
	for (const path of ['/admin', '/admin/store']) {
		const response = await page.goto(path)
		expect(response?.status(), path).toBe(403)
		await expect(page).toHaveURL(path)
		await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible()
		await expect(page.getByText(ADMIN_DENIED)).toBeVisible()
		await expect(page.getByRole('navigation', { name: 'Store Admin' })).toHaveCount(0)
		await expect(page.getByLabel('Store name')).toHaveCount(0)
		await expect(page.getByText(ADMIN_EMAIL)).toHaveCount(0)
		await expect(page.locator('a[href="/admin"]')).toHaveCount(0)
		// The guard throws before any loader runs, so the header cannot know the viewer:
		// it must not pretend the Customer is signed out.
		await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveCount(0)
	}
	// The refusal is not a sign-out: the Customer's session still works.
	await page.goto('/account')
	await expect(page).toHaveURL('/account')
	await expect(page.getByTestId('account-email')).toHaveText(customer.email)
	await expect(page.getByRole('banner').locator('a[href="/admin"]')).toHaveCount(0)
})

test.describe('data requests to Store Admin routes [R5]', () => {
	const dataRequests = [
		'/admin.data',
		'/admin/store.data',
		'/admin/store.data?_routes=routes%2Fadmin%2Fstore',
		'/admin.data?_routes=routes%2Fadmin%2Fdashboard',
	]

	async function expectStoreNameUnchanged(before: string, attempt: string) {
		expect(await publicStoreName(), `store name after ${attempt}`).toBe(before)
		expect(attempt).not.toBe(before)
	}

	test('anonymous data requests are redirected to sign-in and change nothing', async ({ request }) => {
		const before = await publicStoreName()
		for (const url of dataRequests) {
			const response = await request.get(url, { maxRedirects: 0 })
			expect(response.status(), url).toBe(202)
			const body = await response.text()
			const page = new URL(url, 'http://x').pathname.replace(/\.data$/, '')
			expect(body, url).toContain(`"redirect","/sign-in?${new URLSearchParams({ redirectTo: page })}"`)
			expect(body, url).not.toContain(ADMIN_EMAIL)
			expect(body, url).not.toContain('"name"')
		}

		const attempt = uniqueStoreName('Anonymous')
		for (const url of ['/admin/store.data', '/admin/store.data?_routes=routes%2Fadmin%2Fstore']) {
			const response = await request.post(url, { form: { name: attempt }, maxRedirects: 0 })
			expect(response.status(), url).toBe(202)
			expect(await response.text(), url).toContain('"redirect","/sign-in?redirectTo=%2Fadmin%2Fstore"')
		}
		const documentPost = await request.post('/admin/store', { form: { name: attempt }, maxRedirects: 0 })
		expect(documentPost.status()).toBe(302)
		expect(documentPost.headers().location).toBe('/sign-in?redirectTo=%2Fadmin%2Fstore')
		await expectStoreNameUnchanged(before, attempt)
	})

	test("a Customer's data requests get 403 and change nothing", async ({ request }) => {
		await signUp(request)
		const before = await publicStoreName()
		for (const url of dataRequests) {
			const response = await request.get(url, { maxRedirects: 0 })
			expect(response.status(), url).toBe(403)
			const body = await response.text()
			expect(body, url).toContain(ADMIN_DENIED)
			expect(body, url).not.toContain(ADMIN_EMAIL)
		}

		const attempt = uniqueStoreName('Customer')
		for (const url of ['/admin/store.data', '/admin/store.data?_routes=routes%2Fadmin%2Fstore', '/admin/store']) {
			const response = await request.post(url, { form: { name: attempt }, maxRedirects: 0 })
			expect(response.status(), url).toBe(403)
			expect(await response.text(), url).toContain(ADMIN_DENIED)
		}
		await expectStoreNameUnchanged(before, attempt)
	})

	test("the admin's own data request does return the admin data (control)", async ({ request }) => {
		await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
		const response = await request.get('/admin/store.data')
		expect(response.status()).toBe(200)
		const body = await response.text()
		expect(body).toContain(ADMIN_EMAIL)
		expect(body).toContain(`"${await publicStoreName()}"`)
	})
})

test.describe('identity and Store scope come from the session [R4]', () => {
	async function postStoreForm(request: APIRequestContext, url: string, form: Record<string, string>) {
		return request.post(url, { form, maxRedirects: 0 })
	}

	test('a POST to /admin/store with an extra storeId or userId is refused with 400 and changes nothing', async ({ request }) => {
		await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
		const before = await publicStoreName()

		const extras: Record<string, string>[] = [{ storeId: 'another-store' }, { userId: 'someone-else' }, { storeId: '' }]
		for (const extra of extras) {
			const attempt = uniqueStoreName('Injected')
			const field = Object.keys(extra)[0]
			const response = await postStoreForm(request, '/admin/store', { name: attempt, ...extra })
			expect(response.status(), field).toBe(400)
			expect(await response.text(), field).toContain(`Unexpected field: ${field}`)

			const data = await postStoreForm(request, '/admin/store.data', { name: attempt, ...extra })
			expect(data.status(), `${field} (data request)`).toBe(400)
			expect(await publicStoreName(), field).toBe(before)
		}

		// The same form without the extra field is accepted, so the 400s above are about storeId/userId.
		const renamed = uniqueStoreName('Scoped')
		const accepted = await postStoreForm(request, '/admin/store', { name: renamed })
		expect(accepted.status()).toBe(302)
		expect(accepted.headers().location).toBe('/admin/store')
		expect(await publicStoreName()).toBe(renamed)
	})
})
