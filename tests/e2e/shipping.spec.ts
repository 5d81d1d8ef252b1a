/**
 * Shipping and taxes as an owner sets them and a buyer meets them [R119], on a store of this
 * spec's own (zones change every checkout of their Store, and the shared server's other specs
 * check out without choosing shipping): the owner adds a zone, a rate and a tax rate in Store
 * Admin; a buyer in Germany sees shipping and tax in the summary (live with JavaScript) and on
 * the Order, with and without JavaScript; a country in no zone and a missing choice are refused
 * with the cart kept.
 */
import { type Browser, type Page, expect, test } from '@playwright/test'
import { storeOfThisSpec } from './support/store-process.ts'
import { submitSignInForm } from './support/fixtures.ts'

test.describe.configure({ mode: 'serial', timeout: 90_000 })

// A store of its own (init, then the server), as in the other specs that start one.
const store = storeOfThisSpec(test)

/** The enamel mug (16.00) in the cart. */
async function mugInCart(page: Page) {
	await page.goto('/products/enamel-mug')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
}

async function newPage(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled, baseURL: store().origin })
	return { page: await context.newPage(), close: () => context.close() }
}

/**
 * The enamel mug (16.00) in the cart, and the checkout form filled in for `country`; without
 * JavaScript the country's rates are then asked for (the form's second step).
 */
async function toCheckout(page: Page, country: string, javaScriptEnabled: boolean) {
	await mugInCart(page)
	await page.goto('/checkout')
	await fillAddress(page, country)
	if (!javaScriptEnabled) await showRates(page)
}

async function fillAddress(page: Page, country: string) {
	await page.getByLabel('Email').fill(`buyer-${Date.now()}@example.com`)
	await page.getByLabel('Full name').fill('Erika Käufer')
	await page.getByLabel('Street address').fill('Hauptstraße 1')
	await page.getByLabel('City').fill('Berlin')
	await page.getByLabel('Postal code').fill('10115')
	await page.getByLabel('Country', { exact: true }).selectOption(country)
}

/** The no-JavaScript form's second step: the page again, with the chosen country's rates. */
async function showRates(page: Page) {
	const [answer] = await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/checkout') && r.request().method() === 'POST'),
		page.getByRole('button', { name: 'Show shipping options' }).click(),
	])
	expect(answer.status()).toBe(200)
}

test('the owner sets a zone, a rate and a tax rate; bad values are refused beside their fields [R119]', async ({ browser }) => {
	const { page, close } = await newPage(browser, true)
	await page.goto('/sign-in?redirectTo=%2Fadmin%2Fshipping')
	await submitSignInForm(page, store().admin.email, store().admin.password)
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
		await toCheckout(page, 'DE', javaScriptEnabled)
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
	// Standard is offered for Germany; the country is then changed without asking for its rates.
	await toCheckout(page, 'DE', false)
	await page.getByLabel('Country', { exact: true }).selectOption('JP')
	const [refused] = await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/checkout') && r.request().method() === 'POST'),
		page.getByRole('button', { name: 'Place order' }).click(),
	])
	expect(refused.status()).toBe(400)
	await expect(page.locator('#field-country-error')).toHaveText('This shop does not ship to Japan.')

	// Germany chosen and "Place order" pressed at once, before its rates were asked for.
	await page.goto('/checkout')
	await fillAddress(page, 'DE')
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

/** The checkout's fields by label, and what a buyer in France types into them. */
const TYPED: Array<[string, string]> = [
	['Full name', 'Léa Acheteuse'],
	['Street address', '9 Rue de Rivoli'],
	['Apartment, suite (optional)', 'Bâtiment B'],
	['City', 'Paris'],
]

async function expectTypedKept(page: Page, email: string, country: string) {
	await expect(page.getByLabel('Email')).toHaveValue(email)
	for (const [label, value] of TYPED) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value)
	await expect(page.getByLabel('Country', { exact: true })).toHaveValue(country)
}

/** "Place order", refused: a 400 page without JavaScript; with it, the answer to the page's data request. */
async function placeRefused(page: Page) {
	const [answer] = await Promise.all([
		page.waitForResponse((r) => /^\/checkout(\.data)?$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST'),
		page.getByRole('button', { name: 'Place order' }).click(),
	])
	expect(answer.ok()).toBe(false)
}

for (const javaScriptEnabled of [true, false]) {
	test(`a refused checkout keeps everything typed, the error beside its field, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R127]`, async ({ browser }) => {
		const { page, close } = await newPage(browser, javaScriptEnabled)
		await mugInCart(page)
		await page.goto('/checkout')
		const email = `lea-${Date.now()}@example.com`
		await page.getByLabel('Email').fill(email)
		for (const [label, value] of TYPED) await page.getByLabel(label, { exact: true }).fill(value)
		await page.getByLabel('Postal code').fill('75001!')
		await page.getByLabel('Country', { exact: true }).selectOption('FR')
		if (!javaScriptEnabled) await showRates(page)
		// Only France's zone's rate is offered, already chosen.
		await expect(page.getByTestId('shipping-options').getByRole('radio')).toHaveCount(1)
		await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked()

		// A field refused: the error beside it, every other field as typed.
		await placeRefused(page)
		await expect(page.locator('#field-postalCode-error')).toHaveText('Enter a valid postal code')
		await expect(page.getByLabel('Postal code')).toHaveAttribute('aria-invalid', 'true')
		await expect(page.getByLabel('Postal code')).toHaveValue('75001!')
		await expectTypedKept(page, email, 'FR')
		await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked()

		// A country no rate ships to: refused beside the country, still everything kept.
		await page.getByLabel('Postal code').fill('75001')
		await page.getByLabel('Country', { exact: true }).selectOption('JP')
		if (javaScriptEnabled) await expect(page.getByTestId('shipping-options')).toContainText('This shop does not ship to Japan yet.')
		await placeRefused(page)
		await expect(page.locator('#field-country-error')).toHaveText('This shop does not ship to Japan.')
		await expectTypedKept(page, email, 'JP')
		await expect(page.getByLabel('Postal code')).toHaveValue('75001')

		// Corrected, the same form places the Order with what was typed.
		await page.getByLabel('Country', { exact: true }).selectOption('FR')
		if (!javaScriptEnabled) await showRates(page)
		await page.getByRole('button', { name: 'Place order' }).click()
		await expect(page).toHaveURL(/\/orders\//)
		await expect(page.getByText('Bâtiment B')).toBeVisible()
		await expect(page.getByTestId('order-shipping')).toHaveText('$4.95')
		await close()
	})
}

test('the country is a list of names, the countries shipped to first, with ISO codes as values [R127]', async ({ browser }) => {
	const { page, close } = await newPage(browser, false)
	await mugInCart(page)
	await page.goto('/checkout')
	const select = page.locator('select[name="country"]')
	const first = select.locator('optgroup').first()
	await expect(first).toHaveAttribute('label', 'Countries we ship to')
	await expect(first.locator('option')).toHaveText(['France', 'Germany'])
	expect(await first.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['FR', 'DE'])
	await expect(select.locator('optgroup').nth(1).locator('option[value="JP"]')).toHaveText('Japan')
	// Nothing chosen for a guest, and no rate offered before a country is.
	await expect(select).toHaveValue('')
	await expect(page.getByTestId('shipping-options').getByRole('radio')).toHaveCount(0)
	await close()
})

test('forged or oversize checkout fields are refused with 400, and only the form’s own fields come back [R127]', async ({ browser }) => {
	const { page, close } = await newPage(browser, false)
	await mugInCart(page)
	const form = {
		email: 'forger@example.com',
		name: 'Forger',
		addressLine1: '1 Forged Way',
		addressLine2: '',
		city: 'Nowhere',
		postalCode: '1000',
		country: 'DE',
		payment: 'offline',
		idempotencyKey: crypto.randomUUID(),
	}
	const post = (fields: Record<string, string>) => page.request.post('/checkout', { form: fields, headers: { Origin: store().origin }, maxRedirects: 0 })
	const cases: Array<[Record<string, string>, string]> = [
		[{ ...form, country: 'XX' }, 'Choose your country from the list'],
		[{ ...form, storeId: 'forged-store-9f3a' }, 'Unexpected field: storeId'],
		[{ ...form, addressLine1: 'a'.repeat(5_000) }, 'Use at most 120 characters'],
	]
	for (const [fields, message] of cases) {
		const answer = await post(fields)
		expect(answer.status(), message).toBe(400)
		const html = await answer.text()
		expect(html).toContain(message)
		expect(html).toContain('value="Nowhere"')
		expect(html).not.toContain('forged-store-9f3a')
		expect(html).not.toContain('a'.repeat(300))
	}
	// Nothing was placed: the cart still holds the mug.
	await page.goto('/cart')
	await expect(page.getByText('Enamel camp mug').first()).toBeVisible()
	await close()
})

test('on a phone the summary with shipping, tax and total comes before "Place order"; beside the form on a desktop [R127]', async ({ browser }) => {
	const { page, close } = await newPage(browser, true)
	await toCheckout(page, 'DE', true)
	const summary = page.getByRole('complementary', { name: 'Order summary' })
	const button = page.getByRole('button', { name: 'Place order' })
	await expect(page.getByTestId('checkout-total')).toHaveText('$24.93')
	await page.setViewportSize({ width: 390, height: 844 })
	const [phoneSummary, phoneButton] = [(await summary.boundingBox())!, (await button.boundingBox())!]
	expect(phoneSummary.y + phoneSummary.height).toBeLessThanOrEqual(phoneButton.y)
	await page.setViewportSize({ width: 1280, height: 800 })
	const [wideSummary, wideButton] = [(await summary.boundingBox())!, (await button.boundingBox())!]
	expect(wideSummary.x).toBeGreaterThan(wideButton.x)
	await close()
})
