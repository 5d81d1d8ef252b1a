/**
 * Accessibility of every page, checked with axe-core on a desktop (1280 × 800) and a phone
 * (390 × 844): a serious or critical violation fails the run. Each page is loaded once and checked
 * at both sizes (the browser window is resized in between; no page renders by size in script, so
 * the CSS decides, as it would on a page loaded at that size). A page added to the store is added
 * to one of the lists below; Store Admin's pages are checked with data on them in
 * admin-accessibility.spec.ts, which fails when one of its pages is not visited.
 */
import { type Browser, type Page } from '@playwright/test'
import { violations } from './support/axe.ts'
import { fillCheckout, expect, signUp, submitSignInForm, test } from './support/fixtures.ts'

const STOREFRONT = [
	'/',
	'/products/canvas-tote',
	'/products/wool-socks',
	'/search?q=mug',
	'/collections',
	'/cart',
	'/checkout',
	'/newsletter',
	'/newsletter/unsubscribe',
	'/no-such-page',
]
const AUTH = ['/sign-in', '/sign-up', '/forgot-password', '/reset-password']
const ACCOUNT = ['/account', '/account/orders', '/account/password', '/account/security']
// The tests share no state and each keeps its own time: both workers may take them.
test.describe.configure({ mode: 'parallel' })

async function signedIn(browser: Browser, email: string, password: string) {
	const context = await browser.newContext()
	const page = await context.newPage()
	await page.goto('/sign-in')
	await submitSignInForm(page, email, password)
	await expect(page).not.toHaveURL(/\/sign-in/)
	return { page, close: () => context.close() }
}

async function addToCart(page: Page) {
	await page.goto('/products/field-notebook')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
}

test('the storefront pages have no serious accessibility violations at either size, with a cart and an order', async ({ page }) => {
	test.setTimeout(180_000)
	await addToCart(page)
	const found = await violations(page, STOREFRONT)
	await page.goto('/checkout')
	await fillCheckout(page, `axe-${Date.now()}@example.com`)
	await page.getByRole('button', { name: 'Place order' }).click()
	await expect(page).toHaveURL(/\/orders\//)
	found.push(...(await violations(page, [new URL(page.url()).pathname])))
	expect(found).toEqual([])
})

test('the sign-in pages have no serious accessibility violations at either size, with a cart', async ({ page }) => {
	test.setTimeout(120_000)
	await addToCart(page)
	expect(await violations(page, AUTH)).toEqual([])
})

test('the account pages have no serious accessibility violations at either size', async ({ browser }) => {
	test.setTimeout(120_000)
	const context = await browser.newContext()
	const customer = await signUp(context.request)
	await context.close()
	const { page, close } = await signedIn(browser, customer.email, customer.password)
	expect(await violations(page, ACCOUNT)).toEqual([])
	await close()
})
