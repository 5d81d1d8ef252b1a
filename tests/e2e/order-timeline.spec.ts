/**
 * Shipping an Order with a carrier and tracking number, internal notes, and the Order's timeline,
 * as an owner does it from Store Admin, with and without JavaScript: the buyer sees the
 * shipment on their order page and never the notes; a bad tracking number changes nothing.
 */
import { asAdmin, expect, placeOrder, serverOrigin, test } from './support/fixtures.ts'

for (const javaScriptEnabled of [true, false]) {
	test(`ships with a tracking number the buyer sees, notes on the timeline only admins see, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R116]`, async ({
		browser,
		page,
	}) => {
		const number = await placeOrder(page, 'field-notebook')
		const buyerPage = page.url()
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, `/admin/orders/${number}`)
		const timeline = admin.getByTestId('order-timeline')
		await expect(timeline).toContainText('Placed')
		await admin.getByRole('button', { name: 'Mark paid' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Order marked paid.')
		await expect(timeline).toContainText('Marked paid')

		await admin.getByLabel('Internal note').fill('Gift wrap, please.\nBlue paper.')
		await admin.getByRole('button', { name: 'Add note' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Note added.')
		await expect(timeline).toContainText('Gift wrap, please.')

		const entries = await timeline.locator('li').count()
		// Bad input: markup as a tracking number, an empty note, an oversize note. 400, nothing changes.
		for (const form of <Record<string, string>[]>[
			{ intent: 'fulfil', trackingNumber: '<script>alert(1)</script>' },
			{ intent: 'fulfil', carrier: 'x'.repeat(61) },
			{ intent: 'note', note: '   ' },
			{ intent: 'note', note: 'n'.repeat(1001) },
		]) {
			const refused = await admin.request.post(`/admin/orders/${number}`, { form, headers: { Origin: serverOrigin() }, maxRedirects: 0 })
			expect(refused.status(), JSON.stringify(form).slice(0, 60)).toBe(400)
		}
		await admin.reload()
		await expect(admin.getByTestId('order-status')).toHaveText('Paid')
		await expect(timeline.locator('li')).toHaveCount(entries)
		await expect(timeline).not.toContainText('nnnnnnnnnn')

		await admin.getByLabel('Carrier (optional)').fill('DHL')
		await admin.getByLabel('Tracking number (optional)').fill('JD0146 0001')
		await admin.getByRole('button', { name: 'Mark shipped' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Order marked shipped.')
		await expect(timeline).toContainText('Marked shipped: DHL JD0146 0001')
		await close()

		await page.goto(buyerPage)
		await expect(page.getByTestId('order-shipment')).toContainText('with DHL')
		await expect(page.getByTestId('order-shipment')).toContainText('JD0146 0001')
		await expect(page.locator('body')).not.toContainText('Gift wrap')
	})
}
