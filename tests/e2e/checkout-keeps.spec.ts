/**
 * A checkout that keeps what was typed, with a discount code as part of it, in Chromium with
 * JavaScript and without, on a desktop and on a phone: "Apply" tells why a code does not apply
 * beside its field and shows a code's discount in the summary with every field kept [R127, R132,
 * R133]; a submit the rate limit refuses comes back 429 with Retry-After and every field kept
 * [R127]; an Order a code leaves with nothing to pay is placed paid [R140]. Stores of this
 * spec's own: the rate limit is on in one of them.
 */
import { randomUUID } from 'node:crypto'
import { type Browser, type Page, expect, test } from '@playwright/test'
import { submitSignInForm } from './support/fixtures.ts'
import { type StoreProcess, startStoreProcess, storeOfThisSpec } from './support/store-process.ts'

test.describe.configure({ mode: 'serial', timeout: 120_000 })

const store = storeOfThisSpec(test)

/** Every field the shopper types or chooses, as typed. */
const TYPED = {
	Email: 'keeps@example.com',
	'Full name': 'Ada Keeps',
	'Street address': '1 Market Street',
	'Apartment, suite (optional)': 'Flat 2',
	City: 'Springfield',
	'Postal code': '12345',
}

async function newPage(browser: Browser, origin: string, javaScriptEnabled: boolean, viewport = { width: 1280, height: 800 }) {
	const context = await browser.newContext({ javaScriptEnabled, baseURL: origin, viewport })
	return { page: await context.newPage(), close: () => context.close() }
}

/** The notebook in the cart, the checkout open and every field typed, the code too. */
async function typedCheckout(page: Page, code: string) {
	await page.goto('/products/field-notebook')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	for (const [label, value] of Object.entries(TYPED)) await page.getByLabel(label, { exact: true }).fill(value)
	await page.getByLabel('Country', { exact: true }).selectOption('US')
	await page.getByLabel('Discount code (optional)').fill(code)
}

async function expectKept(page: Page, code: string) {
	for (const [label, value] of Object.entries(TYPED)) await expect(page.getByLabel(label, { exact: true }), label).toHaveValue(value)
	await expect(page.getByLabel('Country', { exact: true })).toHaveValue('US')
	await expect(page.getByLabel('Discount code (optional)')).toHaveValue(code)
}

/** A code made by Store Admin through its form. */
async function createCode(browser: Browser, origin: string, admin: StoreProcess['admin'], fields: Record<string, string>) {
	const { page, close } = await newPage(browser, origin, false)
	await page.goto('/sign-in')
	await submitSignInForm(page, admin.email, admin.password)
	const code = `E2E${randomUUID().slice(0, 8).toUpperCase()}`
	const form = { code, kind: 'fixed', value: '5.00', minimumSubtotal: '', startsAt: '', endsAt: '', usageLimit: '', active: 'yes', ...fields }
	const created = await page.request.post('/admin/discounts/new', { form, headers: { Origin: origin }, maxRedirects: 0 })
	expect(created.status()).toBe(302)
	await close()
	return code
}

const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100)

for (const javaScriptEnabled of [true, false]) {
	for (const viewport of [
		{ width: 1280, height: 800 },
		{ width: 390, height: 844 },
	]) {
		test(`"Apply" says why a code does not apply, then shows its discount before "Place order", all typed kept; JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${viewport.width}×${viewport.height} [R127] [R132] [R133]`, async ({
			browser,
		}) => {
			const code = await createCode(browser, store().origin, store().admin, { kind: 'fixed', value: '5.00' })
			const { page, close } = await newPage(browser, store().origin, javaScriptEnabled, viewport)
			try {
				await typedCheckout(page, 'NOSUCHCODE1')
				const total = cents(await page.getByTestId('checkout-total').textContent())
				const answer = page.waitForResponse((response) => response.request().method() === 'POST')
				await page.getByRole('button', { name: 'Apply' }).click()
				expect((await answer).status()).toBe(409)
				await expect(page.locator('#field-discountCode-error')).toHaveText('That discount code is not valid. Check it, or leave the field empty.')
				await expectKept(page, 'NOSUCHCODE1')
				await expect(page.getByTestId('checkout-discount')).toHaveCount(0)

				await page.getByLabel('Discount code (optional)').fill(code.toLowerCase())
				await page.getByRole('button', { name: 'Apply' }).click()
				await expect(page.getByTestId('checkout-discount')).toHaveText('−$5.00')
				await expect(page.getByTestId('discount-applied')).toContainText(code)
				expect(cents(await page.getByTestId('checkout-total').textContent())).toBe(total - 500)
				await expectKept(page, code.toLowerCase())
				// Nothing was placed: the cart still holds the notebook.
				await expect(page.getByTestId('cart-count')).toHaveText(' (1)')

				// The summary, its discount and total are seen before "Place order", on a phone too.
				const summary = (await page.getByRole('complementary', { name: 'Order summary' }).boundingBox())!
				const button = (await page.getByRole('button', { name: 'Place order' }).boundingBox())!
				if (viewport.width < 600) expect(summary.y + summary.height).toBeLessThanOrEqual(button.y)
				else expect(summary.x).toBeGreaterThan(button.x)

				await page.getByRole('button', { name: 'Place order' }).click()
				await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
				await expect(page.getByTestId('order-discount')).toHaveText('−$5.00')
				expect(cents(await page.getByTestId('order-total').textContent())).toBe(total - 500)
			} finally {
				await close()
			}
		})
	}

	test(`an Order a code leaves with nothing to pay is placed paid, no payment due; JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R140]`, async ({
		browser,
	}) => {
		const code = await createCode(browser, store().origin, store().admin, { kind: 'percentage', value: '100' })
		const { page, close } = await newPage(browser, store().origin, javaScriptEnabled)
		try {
			await typedCheckout(page, code)
			await page.getByRole('button', { name: 'Apply' }).click()
			await expect(page.getByTestId('checkout-total')).toHaveText('$0.00')
			await page.getByRole('button', { name: 'Place order' }).click()
			await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
			await expect(page.getByTestId('order-status')).toHaveText('Paid')
			await expect(page.getByText('No payment due: the discount covers the whole order.')).toBeVisible()
			await expect(page.getByRole('button', { name: 'Pay now' })).toHaveCount(0)
		} finally {
			await close()
		}
	})
}

test.describe('with the rate limit on', () => {
	let limited: StoreProcess | undefined
	test.beforeAll(async () => {
		test.setTimeout(180_000)
		limited = await startStoreProcess({ env: { RATE_LIMITS: 'on', RATE_LIMIT_SENSITIVE: '4/60' } })
	})
	test.afterAll(async () => {
		await limited?.stop()
	})

	for (const javaScriptEnabled of [true, false]) {
		test(`a checkout the rate limit refuses comes back 429 with Retry-After and every field kept; JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R127]`, async ({
			browser,
		}) => {
			const { page, close } = await newPage(browser, limited!.origin, javaScriptEnabled)
			try {
				await typedCheckout(page, 'SPRING10')
				// Someone at the same address spends the Sensitive budget first.
				for (let spent = 0; spent < 10; spent++) {
					const answer = await page.request.post('/checkout', { form: { email: 'other@example.com' }, headers: { Origin: limited!.origin }, maxRedirects: 0 })
					if (answer.status() === 429) break
				}
				const answer = page.waitForResponse((response) => response.request().method() === 'POST')
				await page.getByRole('button', { name: 'Place order' }).click()
				const refused = await answer
				expect(refused.status()).toBe(429)
				expect(Number(refused.headers()['retry-after'])).toBeGreaterThanOrEqual(1)
				await expect(page.getByRole('alert').first()).toContainText('Too many attempts')
				await expectKept(page, 'SPRING10')
				await expect(page.getByText('1 × Field notebook')).toBeVisible()
			} finally {
				await close()
			}
		})
	}
})
