/**
 * Provider events end to end, signed with the real Stripe SDK: a verified
 * checkout.session.completed for the Session the store started pays the Order, visible to the
 * customer and in the Store Admin inbox, and replaying it changes nothing further; a forged
 * delivery is refused and only counted. Events that do not reconcile (a short amount, another
 * Order's metadata) move nothing and show as `review` / `conflict` on /admin/events and on the
 * Order's admin page.
 */
import type { Page } from '@playwright/test'
import { stripeEvents, stripeSignature } from '../helpers/events.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, submitSignInForm, test } from './support/fixtures.ts'

// Each test buys by card through the storefront and signs an operator in: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 60_000 })

/** Buys the enamel mug (16.00 USD) by card: the store starts a Checkout Session at the stand-in. */
async function buyByCard(page: Page) {
	await page.goto('/products/enamel-mug')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	for (const [label, value] of [
		['Street address', '9 Pier'],
		['City', 'Bay'],
		['Postal code', '101'],
	]) {
		await page.getByLabel(label!).fill(value!)
	}
	await page.getByLabel('Country', { exact: true }).selectOption('NL')
	await page.getByLabel('Card (Stripe)').check()
	await page.getByRole('button', { name: 'Place order' }).click()
	await expect(page.getByRole('heading', { name: 'Pay 1600 usd' })).toBeVisible()
	const orderId = (await page.locator('[data-order]').getAttribute('data-order'))!
	const sessionId = new URL(page.url()).pathname.split('/').pop()!
	expect(sessionId).toMatch(/^cs_test_/)
	await page.goto('/account/orders')
	const number = (await page.locator('a[href^="/account/orders/"]').first().textContent())!.replace('#', '')
	return { orderId, sessionId, number, paymentIntentId: `pi_e2e_${number}` }
}

/** Delivers `payload` to the Stripe endpoint, signed by the SDK with `secret`. */
function deliver(payload: string, secret = process.env.E2E_STRIPE_WEBHOOK_SECRET!, signature = stripeSignature(payload, secret)) {
	return fetch(`${serverOrigin()}/api/events/stripe`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signature },
		body: payload,
	})
}

/**
 * What the event worker made of an event, as Store Admin's inbox shows it (`data-outcome` of its
 * row), once it is no longer waiting: the intake only keeps and answers.
 */
async function appliedOutcome(admin: Page, payload: string) {
	const id = (JSON.parse(payload) as { id: string }).id
	const row = admin.getByTestId('events').getByRole('row').filter({ hasText: id })
	let outcome: string | null = null
	await expect(async () => {
		await admin.goto('/admin/events')
		outcome = await row.getAttribute('data-outcome', { timeout: 1_000 })
		expect(outcome).not.toBe('received')
	}).toPass({ timeout: 15_000 })
	return outcome
}

/** Reloads `page` until its Order shows `status`: the event worker applies an event just after it is answered. */
async function untilStatus(page: Page, status: string) {
	await expect(async () => {
		await page.reload()
		await expect(page.getByTestId('order-status')).toHaveText(status, { timeout: 1_000 })
	}).toPass({ timeout: 15_000 })
}

async function signInAsAdmin(page: Page, path: string) {
	await page.goto(`/sign-in?redirectTo=${encodeURIComponent(path)}`)
	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	// A password hash (scrypt) is the slow step of these tests on a busy machine.
	await expect(page).toHaveURL(path, { timeout: 15_000 })
}

test('a verified Stripe event pays the Order; the inbox shows it; replay changes nothing [R60, R63, R66]', async ({ page, browser, customer }) => {
	expect(customer.email).toContain('@')
	const order = await buyByCard(page)
	await page.goto(`/account/orders/${order.number}`)
	await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')

	const payload = stripeEvents.sessionCompleted({ ...order, amount: 1600 })
	const forged = await deliver(payload, 'whsec_wrong_secret_value_123456')
	expect(forged.status).toBe(401)
	expect(await forged.json()).toMatchObject({ code: 'VERIFICATION_FAILED' })
	await page.reload()
	await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')

	const delivered = await deliver(payload)
	expect(delivered.status).toBe(200)
	// Verified, kept and answered; the event worker applies it.
	expect(await delivered.json()).toMatchObject({ received: true, duplicate: false, outcome: 'received' })
	await untilStatus(page, 'Paid')

	const operator = await browser.newContext()
	const admin = await operator.newPage()
	await signInAsAdmin(admin, '/admin/events')
	const row = admin
		.getByTestId('events')
		.getByRole('row')
		.filter({ hasText: `Order #${order.number}` })
	await expect(row).toContainText('checkout.session.completed')
	await expect(row).toContainText('Applied')
	await expect(admin.getByTestId('rejections')).toContainText(/stripe.*[1-9]/)
	await row.getByRole('button', { name: 'Replay' }).click()
	await expect(admin.getByTestId('flash')).toContainText(`Order #${order.number}: already paid; nothing changed.`)
	await operator.close()

	await page.reload()
	await expect(page.getByTestId('order-status')).toHaveText('Paid')
})

test('events that do not reconcile move nothing and show as review or conflict, in the inbox and on the Order [R66]', async ({ page, browser, customer }) => {
	expect(customer.email).toContain('@')
	const short = await buyByCard(page)
	const crossed = await buyByCard(page)

	// One cent for a 16.00 Order, through its own Session: held for review.
	const cent = stripeEvents.sessionCompleted({ ...short, amount: 1 })
	expect((await deliver(cent)).status).toBe(200)
	// A refund of the second Order's payment whose metadata names the first: a conflict.
	await deliver(stripeEvents.sessionCompleted({ ...crossed, amount: 1600, paid: false }))
	const conflict = stripeEvents.chargeRefunded({ paymentIntentId: crossed.paymentIntentId, amountRefunded: 1600, orderId: short.orderId })
	expect((await deliver(conflict)).status).toBe(200)
	// A signed body that is not JSON: refused with 400, counted.
	const garbage = await deliver('{"id":"evt_not_json"')
	expect(garbage.status).toBe(400)
	expect(await garbage.json()).toMatchObject({ code: 'INVALID_EVENT' })

	for (const number of [short.number, crossed.number]) {
		await page.goto(`/account/orders/${number}`)
		await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')
	}

	const operator = await browser.newContext()
	const admin = await operator.newPage()
	await signInAsAdmin(admin, '/admin/events')
	expect(await appliedOutcome(admin, cent)).toBe('review')
	expect(await appliedOutcome(admin, conflict)).toBe('conflict')
	const events = admin.getByTestId('events')
	await expect(
		events.locator('tr[data-outcome="review"]').filter({ hasText: `Order #${short.number}: amount short: 1 USD minor units paid of 1600` }),
	).toContainText('Held for review')
	await expect(
		events.locator('tr[data-outcome="conflict"]').filter({ hasText: `Order #${crossed.number}, its metadata Order #${short.number}` }),
	).toContainText('Conflict: references disagree')

	await admin.goto(`/admin/orders/${short.number}`)
	const shortEvents = admin.getByTestId('order-events')
	await expect(shortEvents.locator('tr[data-outcome="review"]')).toContainText('amount short')
	await expect(shortEvents.locator('tr[data-outcome="conflict"]')).toContainText('Conflict: references disagree')
	await expect(admin.getByTestId('order-status')).toHaveText('Awaiting payment')
	await admin.goto(`/admin/orders/${crossed.number}`)
	await expect(admin.getByTestId('order-events').locator('tr[data-outcome="conflict"]')).toContainText(`its metadata Order #${short.number}`)
	await expect(admin.getByTestId('order-status')).toHaveText('Awaiting payment')
	await operator.close()
})

test('a card Order is refunded through Stripe from its admin page: Stripe gets one refund, the buyer sees it, Stripe’s event adds nothing [R117]', async ({
	page,
	browser,
	customer,
}) => {
	expect(customer.email).toContain('@')
	const order = await buyByCard(page)
	const payment = stripeEvents.sessionCompleted({ ...order, amount: 1600 })
	expect((await deliver(payment)).status).toBe(200)

	const operator = await browser.newContext()
	const admin = await operator.newPage()
	await signInAsAdmin(admin, '/admin/events')
	expect(await appliedOutcome(admin, payment)).toBe('applied')
	await admin.goto(`/admin/orders/${order.number}`)
	const form = admin.getByTestId('refund-form')
	await form.getByLabel(/Amount/).fill('6.00')
	await form.getByLabel('Yes, refund this amount to the card').check()
	await form.getByRole('button', { name: 'Refund through Stripe' }).click()
	await expect(admin.getByTestId('flash')).toContainText('Refunded through Stripe and recorded.')
	await expect(admin.getByTestId('order-timeline')).toContainText('Refunded through the provider: $6.00')

	const standIn = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`
	const refunds = (
		(await (await fetch(`${standIn}/__requests`)).json()) as Array<{ path: string; form: Record<string, string>; idempotencyKey: string }>
	).filter((request) => request.path === '/v1/refunds' && request.form.payment_intent === order.paymentIntentId)
	expect(refunds.map((request) => [request.form.amount, request.idempotencyKey])).toEqual([['600', `refund-${order.orderId}-0`]])

	// Stripe's own event for the same 6.00 is already recorded.
	const echo = stripeEvents.chargeRefunded({ paymentIntentId: order.paymentIntentId, amountRefunded: 600, amount: 1600 })
	expect((await deliver(echo)).status).toBe(200)
	expect(await appliedOutcome(admin, echo)).toBe('stale')
	await operator.close()
	await page.goto(`/account/orders/${order.number}`)
	await expect(page.getByTestId('order-status')).toHaveText('Paid')
	await expect(page.getByTestId('order-refunded')).toHaveText('Refunded: $6.00')
})

test('the event endpoint over HTTP: wrong method, unknown endpoint, oversize body (declared or streamed) and bad signatures are refused with their JSON, a repeat is a 200 duplicate [R42, R43, R60, R63]', async () => {
	const endpoint = `${serverOrigin()}/api/events/stripe`
	const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as { code?: string; duplicate?: boolean } })
	const get = await fetch(endpoint)
	expect(get.headers.get('allow')).toBe('POST')
	expect(await json(get)).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' } })
	expect(await json(await fetch(`${serverOrigin()}/api/events/nobody`, { method: 'POST', body: '{}' }))).toMatchObject({
		status: 404,
		body: { code: 'NOT_FOUND' },
	})
	const big = JSON.stringify({ id: 'evt_big', pad: 'x'.repeat(300 * 1024) })
	expect(await json(await deliver(big))).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } })
	// No Content-Length: the bytes are counted as they arrive.
	const chunks = [big.slice(0, 200_000), big.slice(200_000)]
	const streamed = new ReadableStream({
		pull(controller) {
			const next = chunks.shift()
			if (next === undefined) controller.close()
			else controller.enqueue(new TextEncoder().encode(next))
		},
	})
	const chunked = await fetch(endpoint, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(big, process.env.E2E_STRIPE_WEBHOOK_SECRET!) },
		body: streamed,
		duplex: 'half',
	} as RequestInit)
	expect(await json(chunked)).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } })
	const payload = stripeEvents.sessionCompleted({ sessionId: 'cs_unknown_http', paymentIntentId: 'pi_unknown_http', orderId: 'no-such-order', amount: 100 })
	expect(await json(await deliver(payload, 'whsec_wrong'))).toMatchObject({ status: 401, body: { code: 'VERIFICATION_FAILED' } })
	expect(await json(await deliver(payload, undefined, 'garbage'))).toMatchObject({ status: 401, body: { code: 'VERIFICATION_FAILED' } })
	const first = await deliver(payload)
	expect(first.headers.get('cache-control')).toBe('no-store')
	expect(await json(first)).toMatchObject({ status: 200, body: { duplicate: false } })
	expect(await json(await deliver(payload))).toMatchObject({ status: 200, body: { duplicate: true } })
})
