/**
 * A Customer's next checkout is filled in with the shipping address of their last Order, with
 * and without JavaScript; a guest's checkout and another Customer's stay empty.
 */
import { expect, placeOrder, signUp, test } from './support/fixtures.ts'

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('offers a Customer the address of their last Order at the next checkout, and nobody else', async ({ page, customer, browser }) => {
			await placeOrder(page, 'field-notebook', customer.email)
			await page.goto('/products/enamel-mug')
			await page.getByRole('button', { name: 'Add to cart' }).click()
			await expect(page).toHaveURL('/cart')
			await page.goto('/checkout')
			await expect(page.getByTestId('address-from-last-order')).toBeVisible()
			await expect(page.getByLabel('Street address')).toHaveValue('1 Market Street')
			await expect(page.getByLabel('City')).toHaveValue('Springfield')
			await expect(page.getByLabel('Postal code')).toHaveValue('12345')
			await expect(page.getByLabel('Country', { exact: true })).toHaveValue('US')

			// Another Customer, and a guest, get an empty address.
			const context = await browser.newContext({ javaScriptEnabled })
			const other = await context.newPage()
			await signUp(other.request)
			const guest = await browser.newPage({ javaScriptEnabled })
			for (const visitor of [other, guest]) {
				await visitor.goto('/products/enamel-mug')
				await visitor.getByRole('button', { name: 'Add to cart' }).click()
				// Navigating before the add lands would cancel it and leave an empty checkout.
				await expect(visitor).toHaveURL('/cart')
				await visitor.goto('/checkout')
				await expect(visitor.getByLabel('Street address')).toHaveValue('')
				await expect(visitor.getByTestId('address-from-last-order')).toHaveCount(0)
			}
			await context.close()
			await guest.close()
		})
	})
}
