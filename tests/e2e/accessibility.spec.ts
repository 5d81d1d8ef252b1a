/**
 * Accessibility of every page, checked with axe-core on a desktop (1280 × 800) and a phone
 * (390 × 844), one test per size: a serious or critical violation fails the run. A page added to the store is
 * added to one of the lists below.
 */
import AxeBuilder from '@axe-core/playwright'
import { type Browser, type Page } from '@playwright/test'
import { IMAGES } from '../helpers/images.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, fillCheckout, placeOrder, serverOrigin, signUp, submitSignInForm, test } from './support/fixtures.ts'

const VIEWPORTS = [
	{ name: 'desktop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 },
] as const

const STOREFRONT = ['/', '/products/canvas-tote', '/search?q=mug', '/cart', '/checkout', '/newsletter', '/newsletter/unsubscribe', '/no-such-page']
const AUTH = ['/sign-in', '/sign-up', '/forgot-password', '/reset-password']
const ACCOUNT = ['/account', '/account/orders', '/account/password', '/account/security']
const ADMIN = [
	'/admin',
	'/admin/store',
	'/admin/activity',
	'/admin/email',
	'/admin/newsletter',
	'/admin/reviews',
	'/admin/products',
	'/admin/products/new',
	'/admin/collections',
	'/admin/shipping',
	'/admin/orders',
	'/admin/customers',
	'/admin/uploads',
	'/admin/events',
	'/admin/connections',
]

type Viewport = (typeof VIEWPORTS)[number]

/** Each page at one size: the serious and critical violations, named by page, rule and element. */
async function violations(page: Page, viewport: Viewport, paths: readonly string[]) {
	const found: string[] = []
	await page.setViewportSize(viewport)
	for (const path of paths) {
		await page.goto(path)
		const { violations, passes } = await new AxeBuilder({ page }).analyze()
		expect(passes.length, `axe checked ${path}`).toBeGreaterThan(10)
		for (const violation of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
			found.push(
				`${viewport.name} ${path}: ${violation.id} (${violation.impact}) — ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
			)
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

// One test per size: axe is slow on a loaded two-core machine, and each test keeps its own time.
for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.name} size`, () => {
		test('the storefront and sign-in pages have no serious accessibility violations, with a cart and an order', async ({ page }) => {
			test.setTimeout(180_000)
			await page.goto('/products/field-notebook')
			await page.getByRole('button', { name: 'Add to cart' }).click()
			await expect(page).toHaveURL('/cart')
			const found = await violations(page, viewport, [...STOREFRONT, ...AUTH])
			await page.goto('/checkout')
			await fillCheckout(page, `axe-${Date.now()}@example.com`)
			await page.getByRole('button', { name: 'Place order' }).click()
			await expect(page).toHaveURL(/\/orders\//)
			found.push(...(await violations(page, viewport, [new URL(page.url()).pathname])))
			expect(found).toEqual([])
		})

		test('the account pages have no serious accessibility violations', async ({ browser }) => {
			test.setTimeout(120_000)
			const context = await browser.newContext()
			const customer = await signUp(context.request)
			await context.close()
			const { page, close } = await signedIn(browser, customer.email, customer.password)
			expect(await violations(page, viewport, ACCOUNT)).toEqual([])
			await close()
		})

		test('Store Admin has no serious accessibility violations', async ({ browser }) => {
			test.setTimeout(180_000)
			// An Order and a customer of its own, so the detail pages below exist whatever ran before.
			const buyer = await browser.newPage()
			await placeOrder(buyer)
			await signUp(buyer.request)
			await buyer.close()
			const { page, close } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD)
			// An activity log with entries whose targets have no name to show (an upload's id, the admin's email).
			const uploaded = await page.request.post('/api/upload', {
				multipart: { file: { name: 'a11y.png', mimeType: 'image/png', buffer: IMAGES.png } },
				headers: { Origin: serverOrigin() },
			})
			expect(uploaded.status()).toBe(201)
			// Detail pages too: the first product, collection and order the lists link to.
			const details: string[] = []
			for (const [list, link] of [
				['/admin/products', 'a[href^="/admin/products/"]:not([href$="/new"])'],
				['/admin/orders', 'a[href^="/admin/orders/"]'],
				['/admin/customers', 'a[href^="/admin/customers/"]'],
			] as const) {
				await page.goto(list)
				const href = await page.locator(link).first().getAttribute('href')
				if (href) details.push(href)
			}
			expect(details.length).toBeGreaterThan(0)
			expect(await violations(page, viewport, [...ADMIN, ...details])).toEqual([])
			await close()
		})
	})
}
