/**
 * Refunding from an order's Store Admin page as an owner does it: two partial refunds, the
 * form new after each (amount empty, confirmation unticked), its limit and errors in money, and
 * the same form sent twice recording one refund, and each refusal shown only beside the form that
 * was sent — with and without JavaScript.
 */
import { asAdmin, expect, placeOrder, serverOrigin, test } from './support/fixtures.ts'

for (const javaScriptEnabled of [true, false]) {
	test(`two partial refunds, the form reset after each, a resent form refused, each refusal beside its own form, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R66, R130]`, async ({
		browser,
		page,
	}) => {
		const number = await placeOrder(page, 'field-notebook')
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, `/admin/orders/${number}`)
		await admin.getByRole('button', { name: 'Mark paid' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Order marked paid.')

		const form = admin.getByTestId('refund-form')
		await expect(form).toContainText('up to $9.00')
		await form.getByRole('textbox').fill('20')
		await form.getByRole('checkbox').check()
		await form.getByRole('button', { name: 'Record refund' }).click()
		// The refusal is in the refund form, its only message: the "marked paid" notice is gone.
		await expect(form.getByRole('alert')).toContainText('That is more than the $9.00 left to refund')
		await expect(form.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true')
		await expect(admin.getByRole('alert')).toHaveCount(1)
		await expect(admin.getByTestId('flash')).toHaveCount(0)
		// Another form's refusal goes beside that one, and the refund form's is gone.
		await admin.getByTestId('cancel-form').getByRole('button', { name: 'Cancel order' }).click()
		await expect(admin.getByTestId('cancel-form').getByRole('alert')).toHaveText('Tick the box to confirm the cancellation.')
		await expect(admin.getByRole('alert')).toHaveCount(1)

		await form.getByRole('textbox').fill('2.50')
		await form.getByRole('checkbox').check()
		await form.getByRole('button', { name: 'Record refund' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Refund recorded.')
		await expect(form).toContainText('up to $6.50')
		await expect(form.getByRole('textbox')).toHaveValue('')
		await expect(form.getByRole('checkbox')).not.toBeChecked()

		// The first form, sent again as it was (a double click, a stale tab): nothing recorded.
		const resent = await admin.request.post(`/admin/orders/${number}`, {
			form: { intent: 'refund', amount: '2.50', confirm: 'yes', refundedBefore: '0' },
			headers: { Origin: serverOrigin() },
			maxRedirects: 0,
		})
		expect(resent.status()).toBe(409)
		await admin.reload()
		await expect(form).toContainText('up to $6.50')

		await form.getByRole('textbox').fill('6.50')
		await form.getByRole('checkbox').check()
		await form.getByRole('button', { name: 'Record refund' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Refund recorded.')
		await expect(admin.getByTestId('refund-form')).toHaveCount(0)
		await close()
	})
}
