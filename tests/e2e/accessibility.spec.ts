/**
 * Accessibility of every page, checked with axe-core on a desktop (1280 × 800) and a phone
 * (390 × 844): a serious or critical violation fails the run. Each page is loaded once and checked
 * at both sizes (the browser window is resized in between; no page renders by size in script, so
 * the CSS decides, as it would on a page loaded at that size). A page added to the store is added
 * to one of the lists below.
 */
import AxeBuilder from '@axe-core/playwright'
import { type Browser, type Page } from '@playwright/test'
import { IMAGES } from '../helpers/images.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, fillCheckout, placeOrder, serverOrigin, signUp, submitSignInForm, test } from './support/fixtures.ts'

const VIEWPORTS = [
	{ name: 'desktop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 },
] as const

const STOREFRONT = [
	'/',
	'/products/canvas-tote',
	'/products/wool-socks',
	'/search?q=mug',
	'/cart',
	'/checkout',
	'/newsletter',
	'/newsletter/unsubscribe',
	'/no-such-page',
]
const AUTH = ['/sign-in', '/sign-up', '/forgot-password', '/reset-password']
const ACCOUNT = ['/account', '/account/orders', '/account/password', '/account/security']
// Store Admin in three groups, each with what its pages show: the activity log and uploads after an
// upload; the orders and customers (and the dashboard) after an Order and a sign-up of their own.
const ADMIN_SETTINGS = ['/admin/store', '/admin/activity', '/admin/email', '/admin/newsletter', '/admin/uploads', '/admin/events', '/admin/connections']
const ADMIN_CATALOG = ['/admin/reviews', '/admin/products', '/admin/products/new', '/admin/collections', '/admin/shipping']
const ADMIN_SALES = ['/admin', '/admin/orders', '/admin/customers', '/admin/customers?show=guests']

// The tests share no state and each keeps its own time: both workers may take them.
test.describe.configure({ mode: 'parallel' })

/**
 * axe-core in the page itself (axe.run), not its default of a partial run per frame finished in a
 * blank page opened for each check: the store's pages have no frames, so both check the same
 * nodes with the same rules, and a tab opened and closed per check was most of the spec's time.
 */
function axe(page: Page) {
	return new AxeBuilder({ page }).setLegacyMode()
}

/** Each page loaded once and checked at each size: the serious and critical violations, named by size, page, rule and element. */
async function violations(page: Page, paths: readonly string[]) {
	const found: string[] = []
	for (const path of paths) {
		await page.setViewportSize(VIEWPORTS[0])
		await page.goto(path)
		for (const viewport of VIEWPORTS) {
			await page.setViewportSize(viewport)
			const { violations, passes } = await axe(page).analyze()
			expect(passes.length, `axe checked ${path} at ${viewport.name} size`).toBeGreaterThan(10)
			for (const violation of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
				found.push(
					`${viewport.name} ${path}: ${violation.id} (${violation.impact}) — ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
				)
			}
		}
	}
	return found
}

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

/** The first detail page each list links to. */
async function detailPages(page: Page, lists: ReadonlyArray<readonly [list: string, link: string]>) {
	const details: string[] = []
	for (const [list, link] of lists) {
		await page.goto(list)
		const href = await page.locator(link).first().getAttribute('href')
		if (href) details.push(href)
	}
	return details
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

test('Store Admin’s settings pages have no serious accessibility violations at either size', async ({ browser }) => {
	test.setTimeout(180_000)
	// An Order of its own, so the outbox lists its confirmation mail whatever ran before.
	const buyer = await browser.newPage()
	await placeOrder(buyer)
	await buyer.close()
	const { page, close } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD)
	// An activity log with entries whose targets have no name to show (an upload's id, the admin's email).
	const uploaded = await page.request.post('/api/upload', {
		multipart: { file: { name: 'a11y.png', mimeType: 'image/png', buffer: IMAGES.png } },
		headers: { Origin: serverOrigin() },
	})
	expect(uploaded.status()).toBe(201)
	expect(await violations(page, ADMIN_SETTINGS)).toEqual([])
	await close()
})

test('Store Admin’s catalog pages have no serious accessibility violations at either size', async ({ browser }) => {
	test.setTimeout(180_000)
	const { page, close } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD)
	// The first product the list links to (the demo products are there from the start).
	const details = await detailPages(page, [['/admin/products', 'a[href^="/admin/products/"]:not([href$="/new"]):not([href$=".csv"])']])
	expect(details.length).toBeGreaterThan(0)
	expect(await violations(page, [...ADMIN_CATALOG, ...details])).toEqual([])
	await close()
})

test('Store Admin’s order and customer pages have no serious accessibility violations at either size', async ({ browser }) => {
	test.setTimeout(180_000)
	// An Order and a customer of its own, so the detail pages below exist whatever ran before.
	const buyer = await browser.newPage()
	await placeOrder(buyer)
	await signUp(buyer.request)
	await buyer.close()
	const { page, close } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD)
	const details = await detailPages(page, [
		['/admin/orders', 'a[href^="/admin/orders/"]'],
		['/admin/customers', 'a[href^="/admin/customers/"]'],
		['/admin/customers?show=guests', 'a[href^="/admin/customers/guest?"]'],
	])
	expect(details.length).toBe(3)
	details.push(`${details[0]}/packing-slip`)
	expect(await violations(page, [...ADMIN_SALES, ...details])).toEqual([])
	await close()
})
