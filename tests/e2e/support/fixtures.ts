import { randomUUID } from 'node:crypto'
import { type APIRequestContext, type Browser, type Page, expect, request as apiRequest, test as base } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './credentials.ts'

export { ADMIN_EMAIL, ADMIN_PASSWORD }

export type Shopper = { name: string; email: string; password: string }

export const GENERIC_SIGN_IN_FAILURE = 'Invalid email or password.'

/** A never-used shopper identity. */
export function newShopper(): Shopper {
	const id = randomUUID()
	return {
		name: `Shopper ${id.slice(0, 8)}`,
		email: `shopper-${id}@example.com`,
		password: `pw-${randomUUID()}`,
	}
}

/**
 * Registers through the sign-up form's own endpoint (what the no-JS form posts).
 * The session cookie lands in `request`'s cookie jar: pass `page.request` to sign a page in.
 */
export async function signUp(request: APIRequestContext, shopper: Shopper = newShopper()) {
	const response = await request.post('/sign-up', {
		form: { name: shopper.name, email: shopper.email, password: shopper.password },
		headers: { Origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(response.status(), 'sign-up should redirect').toBe(302)
	expect(response.headers().location).toBe('/account')
	return shopper
}

/** A registered Customer with no session anywhere (signed up from a throwaway client). */
export async function registerShopper(shopper: Shopper = newShopper()) {
	const client = await apiRequest.newContext({ baseURL: serverOrigin() })
	try {
		return await signUp(client, shopper)
	} finally {
		await client.dispose()
	}
}

/** Signs in through the sign-in form's endpoint; the session lands in `request`'s cookie jar. */
export async function signIn(request: APIRequestContext, email: string, password: string) {
	const response = await request.post('/sign-in', {
		form: { email, password, redirectTo: '' },
		headers: { Origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(response.status(), `sign-in as ${email} should redirect`).toBe(302)
	return response
}

/** Fills the checkout form's contact and shipping fields on the current page (already at /checkout). */
export async function fillCheckout(page: Page, email: string) {
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Full name').fill('Ada Buyer')
	await page.getByLabel('Street address').fill('1 Market Street')
	await page.getByLabel('City').fill('Springfield')
	await page.getByLabel('Postal code').fill('12345')
	await page.getByLabel('Country', { exact: true }).selectOption('US')
}

/** A guest's offline Order of one `slug` through the pages (cart, checkout); its number. */
export async function placeOrder(page: Page, slug = 'field-notebook', email = `buyer-${Date.now()}@example.com`) {
	await page.goto(`/products/${slug}`)
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	await fillCheckout(page, email)
	await page.getByRole('button', { name: 'Place order' }).click()
	await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
	return Number((await page.getByRole('heading', { name: /Order #/ }).textContent())?.match(/#(\d+)/)?.[1])
}

/** Fills and submits the sign-in form on the current page (already at /sign-in). */
export async function submitSignInForm(page: Page, email: string, password: string) {
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password', { exact: true }).fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

/** Fills and submits the sign-up form on the current page, as a person would. */
export async function submitSignUpForm(page: Page, shopper: Shopper) {
	await page.getByLabel('Name').fill(shopper.name)
	await page.getByLabel('Email').fill(shopper.email)
	await page.getByLabel('Password (8 to 128 characters)').fill(shopper.password)
	await page.getByRole('button', { name: 'Create account' }).click()
}

/** The admin signed in, in a context of its own (JavaScript on or off), on `path`. */
export async function asAdmin(browser: Browser, javaScriptEnabled: boolean, path: string) {
	const context = await browser.newContext({ javaScriptEnabled })
	const admin = await context.newPage()
	await admin.goto(`/sign-in?redirectTo=${encodeURIComponent(path)}`)
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(admin).toHaveURL(path)
	return { admin, close: () => context.close() }
}

/** The server's origin (tests/playwright.config.ts picks the port once per run). */
export function serverOrigin() {
	if (!process.env.E2E_PORT) throw new Error('E2E_PORT is unset: run through tests/playwright.config.ts')
	return `http://127.0.0.1:${process.env.E2E_PORT}`
}

/** The Store name every visitor sees in the header, read by a fresh client with no cookies. */
export async function publicStoreName(): Promise<string> {
	const response = await fetch(`${serverOrigin()}/`)
	expect(response.status).toBe(200)
	const match = /<a class="brand" href="\/"[^>]*>([^<]*)<\/a>/.exec(await response.text())
	if (!match?.[1]) throw new Error('No store name in the header of /')
	return match[1]
}

type Fixtures = {
	/** A freshly registered Customer whose session is in the page's browser context. */
	customer: Shopper
}

export const test = base.extend<Fixtures>({
	/**
	 * The API client posts the way the store's own pages do: from the store's origin.
	 * A browser always sends Origin on a POST, and the store refuses cookie-bearing
	 * writes without it (docs/decisions/011). Tests of cross-site posts pass their own
	 * Origin or Sec-Fetch-Site, which wins over this default.
	 */
	request: async ({ playwright }, use) => {
		const request = await playwright.request.newContext({
			baseURL: serverOrigin(),
			extraHTTPHeaders: { Origin: serverOrigin() },
		})
		await use(request)
		await request.dispose()
	},
	customer: async ({ page }, use) => {
		await use(await signUp(page.request))
	},
})

export { expect }
