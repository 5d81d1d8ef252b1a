/**
 * Discount codes through the pages and the public form contract [R132, R133, R135]: Store Admin
 * creates a code by posting `/admin/discounts/new` with its documented fields and sees it listed;
 * bad values answer 400 with nothing saved; a Customer gets 403. A shopper without JavaScript
 * types a wrong code and is told why beside the field with the cart kept, then the right one in
 * another case, and the Order page shows the code and what it took off the total.
 */
import { randomUUID } from 'node:crypto'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, fillCheckout, serverOrigin, signIn, signUp, test } from './support/fixtures.ts'

const codeFields = (code: string, more: Record<string, string> = {}) => ({
	code,
	kind: 'fixed',
	value: '5.00',
	minimumSubtotal: '',
	startsAt: '',
	endsAt: '',
	usageLimit: '100',
	active: 'yes',
	...more,
})

test.describe('discount codes', () => {
	test.use({ javaScriptEnabled: false })

	test('an admin creates a code through the form contract; bad values and a Customer are refused [R135]', async ({ playwright }) => {
		const admin = await playwright.request.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
		const customer = await playwright.request.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
		try {
			await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
			const code = `E2E${randomUUID().slice(0, 8).toUpperCase()}`
			const created = await admin.post('/admin/discounts/new', { form: codeFields(code.toLowerCase(), { oncePerCustomer: 'yes' }), maxRedirects: 0 })
			expect(created.status()).toBe(302)
			expect(created.headers().location).toBe('/admin/discounts')
			const listed = await (await admin.get('/admin/discounts')).text()
			expect(listed).toContain(code)

			for (const [fields, status] of [
				[codeFields(`BAD${randomUUID().slice(0, 6)}`, { value: 'abc' }), 400],
				[codeFields(`BAD${randomUUID().slice(0, 6)}`, { kind: 'percentage', value: '150' }), 400],
				[codeFields(`BAD${randomUUID().slice(0, 6)}`, { usageLimit: '-1' }), 400],
				[codeFields(`BAD${randomUUID().slice(0, 6)}`, { storeId: 'another' }), 400],
				[codeFields(code), 409],
			] as const) {
				const refused = await admin.post('/admin/discounts/new', { form: fields, maxRedirects: 0 })
				expect(refused.status(), JSON.stringify(fields)).toBe(status)
			}
			expect((await (await admin.get('/admin/discounts')).text()).match(/BAD[0-9a-f]{6}/gi)).toBeNull()

			await signUp(customer)
			const forbidden = await customer.post('/admin/discounts/new', { form: codeFields(`CUST${randomUUID().slice(0, 6)}`), maxRedirects: 0 })
			expect(forbidden.status()).toBe(403)
		} finally {
			await admin.dispose()
			await customer.dispose()
		}
	})

	test('a shopper without JavaScript is told why a code does not apply, keeps the cart, and pays less with the right one [R132, R133]', async ({
		page,
		playwright,
	}) => {
		const admin = await playwright.request.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
		const code = `SAVE${randomUUID().slice(0, 8).toUpperCase()}`
		try {
			await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
			expect((await admin.post('/admin/discounts/new', { form: codeFields(code), maxRedirects: 0 })).status()).toBe(302)
		} finally {
			await admin.dispose()
		}
		await page.goto('/products/field-notebook')
		await page.getByRole('button', { name: 'Add to cart' }).click()
		await expect(page).toHaveURL('/cart')
		await page.goto('/checkout')
		const total = await page.getByTestId('checkout-total').textContent()
		await fillCheckout(page, `buyer-${Date.now()}@example.com`)
		await page.getByLabel('Discount code (optional)').fill('NOSUCHCODE1')
		await page.getByRole('button', { name: 'Place order' }).click()
		await expect(page.getByText('That discount code is not valid. Check it, or leave the field empty.').first()).toBeVisible()
		await expect(page.getByTestId('checkout-total')).toHaveText(total ?? '')

		await fillCheckout(page, `buyer-${Date.now()}@example.com`)
		await page.getByLabel('Discount code (optional)').fill(code.toLowerCase())
		await page.getByRole('button', { name: 'Place order' }).click()
		await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
		await expect(page.getByTestId('order-charges')).toContainText(`Discount (${code})`)
		await expect(page.getByTestId('order-discount')).toHaveText('−$5.00')
		const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100)
		expect(cents(await page.getByTestId('order-total').textContent())).toBe(cents(total) - 500)
	})
})
