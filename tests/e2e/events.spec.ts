/**
 * Issue 9 end to end: a Stripe-signed payment_intent.succeeded sent to /api/events/stripe turns
 * a checked-out Order paid, visible to the customer and in the Store Admin inbox; replaying it
 * from the inbox changes nothing further; a forged delivery is refused and only counted.
 */
import { stripeEvent, stripeSignature } from '../helpers/events.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, submitSignInForm, test } from './support/fixtures.ts'

test('a verified Stripe event pays the Order; the inbox shows it; replay changes nothing (issue 9)', async ({ page, browser, customer }) => {
	expect(customer.email).toContain('@')
	await page.goto('/products/enamel-mug')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	for (const [label, value] of [['Street address', '9 Pier'], ['City', 'Bay'], ['Postal code', '101'], ['Country code', 'NL']]) {
		await page.getByLabel(label!).fill(value!)
	}
	await page.getByLabel('Card (Stripe)').check()
	await page.getByRole('button', { name: 'Place order' }).click()
	await expect(page.getByRole('heading', { name: 'Pay 1600 usd' })).toBeVisible()
	const orderId = (await page.locator('[data-order]').getAttribute('data-order'))!
	await page.goto('/account/orders')
	const number = (await page.locator('a[href^="/account/orders/"]').first().textContent())!.replace('#', '')
	await page.goto(`/account/orders/${number}`)
	await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')

	const secret = process.env.E2E_STRIPE_WEBHOOK_SECRET!
	const payload = stripeEvent('payment_intent.succeeded', { id: `pi_e2e_${number}`, object: 'payment_intent', amount: 1600, metadata: { orderId } })
	const forged = await fetch(`${serverOrigin()}/api/events/stripe`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, 'whsec_wrong_secret_value_123456') },
		body: payload,
	})
	expect(forged.status).toBe(401)
	await page.reload()
	await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')

	const delivered = await fetch(`${serverOrigin()}/api/events/stripe`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, secret) },
		body: payload,
	})
	expect(delivered.status).toBe(200)
	expect(await delivered.json()).toMatchObject({ received: true, duplicate: false, outcome: 'applied' })
	await page.reload()
	await expect(page.getByTestId('order-status')).toHaveText('Paid')

	const operator = await browser.newContext()
	const admin = await operator.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fevents')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	const row = admin.getByTestId('events').getByRole('row').filter({ hasText: `Order #${number}` })
	await expect(row).toContainText('payment_intent.succeeded')
	await expect(row).toContainText('Applied')
	await expect(admin.getByTestId('rejections')).toContainText(/stripe.*[1-9]/)
	await row.getByRole('button', { name: 'Replay' }).click()
	await expect(admin.getByTestId('flash')).toContainText(`Order #${number}: already paid; nothing changed.`)
	await operator.close()

	await page.reload()
	await expect(page.getByTestId('order-status')).toHaveText('Paid')
})
