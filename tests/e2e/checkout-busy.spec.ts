/**
 * A checkout that meets a database kept busy by someone else [R67], as a shopper sees it in
 * Chromium with JavaScript and without: the checkout page again with "please try again", a 503
 * with Retry-After, the cart as it was; once the database is free the same button places the
 * Order. A store of the spec's own, so the lock it holds stops no other spec.
 */
import { type Page, expect, test } from '@playwright/test'
import { holdRowLock } from '../helpers/locks.ts'
import { fillCheckout } from './support/fixtures.ts'
import { storeOfThisSpec } from './support/store-process.ts'

test.describe.configure({ mode: 'serial' })

const store = storeOfThisSpec(test, { startMs: 180_000 })

async function fillCart(page: Page) {
	await page.goto(`${store().origin}/products/enamel-mug`)
	const productId = await page.locator('input[name="productId"]').getAttribute('value')
	await page.getByLabel('Quantity').fill('2')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL(`${store().origin}/cart`)
	await page.goto(`${store().origin}/checkout`)
	const email = `busy-${Date.now()}@example.com`
	await fillCheckout(page, email)
	return { productId: productId!, email }
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a busy database gives the checkout page back with 503, Retry-After, the cart and the typing intact; the retry places the Order [R67] [R127]', async ({
			page,
		}) => {
			const { productId, email } = await fillCart(page)
			const release = await holdRowLock(store().databaseUrl, productId)
			try {
				const answer = page.waitForResponse((response) => response.request().method() === 'POST')
				await page.getByRole('button', { name: 'Place order' }).click()
				const response = await answer
				expect(response.status()).toBe(503)
				expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0)
				await expect(page.getByRole('alert')).toContainText('The store is busy right now')
				await expect(page.getByRole('button', { name: 'Place order' })).toBeEnabled()
				await expect(page.getByText('2 × Enamel camp mug')).toBeVisible()
				await expect(page.getByTestId('cart-count')).toHaveText(' (2)')
			} finally {
				await release()
			}
			// With JavaScript or without (a new document), the form comes back as it was typed [R127].
			await expect(page.getByLabel('Email')).toHaveValue(email)
			await expect(page.getByLabel('Postal code')).toHaveValue('12345')
			await expect(page.getByLabel('Country', { exact: true })).toHaveValue('US')
			await page.getByRole('button', { name: 'Place order' }).click()
			await expect(page.getByRole('heading', { name: /Thank you! Order #\d+/ })).toBeVisible()
			await expect(page.getByTestId('cart-link')).toHaveText('Cart')
		})
	})
}
