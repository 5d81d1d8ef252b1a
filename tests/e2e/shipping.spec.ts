/**
 * Shipping and taxes as an owner sets them and a buyer meets them [R119], on a store of this
 * spec's own (zones change every checkout of their Store, and the shared server's other specs
 * check out without choosing shipping): the owner adds a zone, a rate and a tax rate in Store
 * Admin; a buyer in Germany sees shipping and tax in the summary (live with JavaScript) and on
 * the Order, with and without JavaScript; a country in no zone and a missing choice are refused
 * with the cart kept.
 */
import { type Browser, type Page, expect, test } from '@playwright/test'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'
import { submitSignInForm } from './support/fixtures.ts'

test.describe.configure({ mode: 'serial', timeout: 90_000 })

let store: StoreProcess

test.beforeAll(async () => {
	// A store of its own (init, then the server), as in the other specs that start one.
	test.setTimeout(120_000)
	store = await startStoreProcess()
})
test.afterAll(async () => {
	await store?.stop()
})

async function newPage(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled, baseURL: store.origin })
	return { page: await context.newPage(), close: () => context.close() }
}

/** The enamel mug (16.00) in the cart, and the checkout form filled in for `country`. */
async function toCheckout(page: Page, country: string) {
	await page.goto('/products/enamel-mug')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	await page.getByLabel('Email').fill(`buyer-${Date.now()}@example.com`)
	await page.getByLabel('Full name').fill('Erika Käufer')
	await page.getByLabel('Street address').fill('Hauptstraße 1')
	await page.getByLabel('City').fill('Berlin')
	await page.getByLabel('Postal code').fill('10115')
	await page.getByLabel('Country code', { exact: true }).fill(country)
}

test('the owner sets a zone, a rate and a tax rate; bad values are refused beside their fields [R119]', async ({ browser }) => {
	const { page, close } = await newPage(browser, true)
	await page.goto('/sign-in?redirectTo=%2Fadmin%2Fshipping')
	await submitSignInForm(page, store.admin.email, store.admin.password)
	await expect(page).toHaveURL('/admin/shipping')

	await page.getByLabel('Zone name').fill('Europe')
	await page.getByLabel('Country codes, separated by commas').fill('de, fr, XX')
	await page.getByRole('button', { name: 'Add zone' }).click()
	await expect(page.getByText('Not a country code: XX.').first()).toBeVisible()
	await page.getByLabel('Country codes, separated by commas').fill('de, fr')
	await page.getByRole('button', { name: 'Add zone' }).click()
	await expect(page.getByTestId('flash')).toContainText('Zone added.')

	const zone = page.getByTestId('shipping-zone').filter({ hasText: 'Europe' })
	await expect(zone).toContainText('Germany (DE), France (FR)')
	await zone.getByLabel('New rate for Europe').fill('Standard')
	await zone.getByLabel('Price').fill('-4')
	await zone.getByRole('button', { name: 'Add rate' }).click()
	await expect(page.getByText('Enter a price like 4.95 (0 for free)').first()).toBeVisible()
	await zone.getByLabel('New rate for Europe').fill('Standard')
	await zone.getByLabel('Price').fill('4.95')
	await zone.getByLabel('Free from (optional)').fill('50')
	await zone.getByRole('button', { name: 'Add rate' }).click()
	await expect(page.getByTestId('flash')).toContainText('Rate added.')
	await expect(page.getByTestId('shipping-zone').filter({ hasText: 'Europe' })).toContainText('$4.95')

	await page.getByLabel('Country code', { exact: true }).fill('DE')
	await page.getByLabel('Tax rate (percent)').fill('150')
	await page.getByRole('button', { name: 'Save tax rate' }).click()
	await expect(page.getByText('Enter a rate from 0 to 100 percent.').first()).toBeVisible()
	await page.getByLabel('Country code', { exact: true }).fill('DE')
	await page.getByLabel('Tax rate (percent)').fill('19')
	await page.getByRole('button', { name: 'Save tax rate' }).click()
	await expect(page.getByTestId('tax-rates')).toContainText('Germany (DE)')
	await expect(page.getByTestId('tax-rates')).toContainText('19%')
	await close()
})

for (const javaScriptEnabled of [true, false]) {
	test(`a buyer in Germany pays the rate chosen and 19% tax, shown before and after placing, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R119]`, async ({
		browser,
	}) => {
		const { page, close } = await newPage(browser, javaScriptEnabled)
		await toCheckout(page, 'DE')
		await page.getByRole('radio', { name: /Standard/ }).check()
		if (javaScriptEnabled) {
			// 16.00 + 4.95 = 20.95; 19% of it is 3.9805: 3.98; total 24.93.
			await expect(page.getByTestId('checkout-shipping')).toHaveText('$4.95')
			await expect(page.getByTestId('checkout-tax')).toHaveText('$3.98')
			await expect(page.getByTestId('checkout-total')).toHaveText('$24.93')
		}
		await page.getByRole('button', { name: 'Place order' }).click()
		await expect(page).toHaveURL(/\/orders\//)
		await expect(page.getByTestId('order-shipping')).toHaveText('$4.95')
		await expect(page.getByTestId('order-tax')).toHaveText('$3.98')
		await expect(page.getByTestId('order-total')).toHaveText('$24.93')
		await close()
	})
}

test('a country in no zone and a missing shipping choice are refused with 400, the cart kept [R119]', async ({ browser }) => {
	const { page, close } = await newPage(browser, false)
	await toCheckout(page, 'JP')
	await page.getByRole('radio', { name: /Standard/ }).check()
	const [refused] = await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/checkout') && r.request().method() === 'POST'),
		page.getByRole('button', { name: 'Place order' }).click(),
	])
	expect(refused.status()).toBe(400)
	await expect(page.getByText('This shop does not ship to JP.').first()).toBeVisible()

	await toCheckout(page, 'DE')
	const [unchosen] = await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/checkout') && r.request().method() === 'POST'),
		page.getByRole('button', { name: 'Place order' }).click(),
	])
	expect(unchosen.status()).toBe(400)
	await expect(page.getByText('Choose how to ship your order.').first()).toBeVisible()
	await page.goto('/cart')
	await expect(page.getByText('Enamel camp mug').first()).toBeVisible()
	await close()
})
