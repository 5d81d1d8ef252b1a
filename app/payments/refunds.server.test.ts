/**
 * Refunds of card Orders go through Stripe before the store records them [R117], against a
 * Stripe stand-in on both engines: one refund per form whatever is resent, nothing recorded
 * when Stripe refuses, and Stripe's own event for the refund changing nothing more [R66].
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { offline, startedCardOrder } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../tests/helpers/events'
import { startStripeStandIn } from '../../tests/helpers/stripe-stand-in'
import { unverifiedScope } from '../data/scope'
import type { AdminViewer } from '../data/viewer'
import { adminRepositoriesFor } from '../repositories.server'
import { connectionScope, sealSecret } from '../security/secret-box.server'
import { deliverAndApply } from '../../tests/helpers/event-delivery'

/** This file's own Connection: other test files share the database. */
const HANDLE = 'rf-stripe'

describe.each(PROVIDERS)('card refunds through Stripe on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let standIn: Awaited<ReturnType<typeof startStripeStandIn>>
	const webhookSecret = newWebhookSecret()

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		standIn = await startStripeStandIn()
		await offline(t.db, t.storeId)
		admin = (await signUpAdmin(t)).viewer
		const secretBox = sealSecret({ secretKey: 'sk_test_refunds', webhookSecret, apiBase: standIn.url }, connectionScope(t.storeId, HANDLE))
		await t.db.connection.upsert({
			where: { storeId_handle: { storeId: t.storeId, handle: HANDLE } },
			create: { storeId: t.storeId, handle: HANDLE, provider: 'stripe', displayName: 'Card', secretBox },
			update: { secretBox, active: true },
		})
	})
	afterAll(async () => {
		await standIn.stop()
		await t.db.$disconnect()
	})

	async function deliver(payload: string) {
		const delivered = await deliverAndApply(unverifiedScope(t.db, t.storeId), {
			handle: HANDLE,
			request: stripeRequest(`http://store.test/api/events/${HANDLE}`, payload, stripeSignature(payload, webhookSecret)),
		})
		expect(delivered.status).toBe(200)
		return delivered
	}
	/** A 50.00 USD card Order whose Checkout Session the store recorded; paid through it unless `paid` is false. */
	async function cardOrder({ paid = true, intent = `pi_${randomUUID().replaceAll('-', '')}` } = {}) {
		const { order, sessionId } = await startedCardOrder(t.db, t.storeId, HANDLE)
		if (paid)
			expect((await deliver(stripeEvents.sessionCompleted({ orderId: order.id, sessionId, paymentIntentId: intent, amount: 5000 }))).outcome).toBe('applied')
		return { id: order.id, number: order.number, intent }
	}
	const orders = () => adminRepositoriesFor(admin, t.db).adminOrders
	const state = (id: string) => t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, refundedMinor: true } })
	const refundsAtStripe = async (intent: string) => (await standIn.requests()).filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent)
	const refundsRecorded = (id: string) => t.db.auditEntry.count({ where: { storeId: t.storeId, targetId: id, action: 'order.refund' } })

	it('refunds a card Order through Stripe before recording it, and Stripe’s own event for the refund changes nothing more [R117]', async () => {
		const order = await cardOrder()
		expect(await orders().act(order.number, 'refund', { refundMinor: 2000, refundedBefore: 0 })).toEqual({ refundedThroughProvider: true })
		const [sent] = await refundsAtStripe(order.intent)
		expect(sent).toMatchObject({ method: 'POST', authorized: true, idempotencyKey: `refund-${order.id}-0` })
		expect(sent!.form).toMatchObject({ amount: '2000', 'metadata[orderId]': order.id, 'metadata[storeId]': t.storeId })
		expect(await state(order.id)).toEqual({ status: 'paid', refundedMinor: 2000 })
		const audit = await t.db.auditEntry.findFirstOrThrow({ where: { storeId: t.storeId, targetId: order.id, action: 'order.refund' } })
		expect(JSON.parse(audit.detail ?? '{}')).toMatchObject({ amountMinor: 2000, providerRefundRef: expect.stringMatching(/^re_/) })

		// Stripe's charge.refunded names the same cumulative 20.00: already recorded.
		expect((await deliver(stripeEvents.chargeRefunded({ paymentIntentId: order.intent, amountRefunded: 2000, amount: 5000 }))).outcome).toBe('stale')
		expect(await state(order.id)).toEqual({ status: 'paid', refundedMinor: 2000 })

		// The rest: the Order is refunded in full, through a second Stripe refund with its own key.
		await orders().act(order.number, 'refund', { refundMinor: 3000, refundedBefore: 2000 })
		expect(await state(order.id)).toEqual({ status: 'refunded', refundedMinor: 5000 })
		expect((await refundsAtStripe(order.intent)).map((r) => [r.form.amount, r.idempotencyKey])).toEqual([
			['2000', `refund-${order.id}-0`],
			['3000', `refund-${order.id}-2000`],
		])
		const timeline = (await orders().byNumber(order.number)).timeline.map((entry) => entry.what)
		expect(timeline).toContain('Refunded through the provider: $20.00')
	})

	it('records nothing when Stripe refuses the refund, and says what Stripe said with a 502 [R117]', async () => {
		const order = await cardOrder({ intent: `pi_refuse_${randomUUID().slice(0, 8)}` })
		await expect(orders().act(order.number, 'refund', { refundMinor: 1000, refundedBefore: 0 })).rejects.toMatchObject({
			status: 502,
			message: expect.stringContaining('has already been refunded'),
		})
		expect(await state(order.id)).toEqual({ status: 'paid', refundedMinor: 0 })
		expect(await refundsRecorded(order.id)).toBe(0)
	})

	it('makes one refund at Stripe and records it once when the same form is sent twice at once [R117, R66]', async () => {
		const order = await cardOrder()
		const results = await Promise.allSettled([0, 1].map(() => orders().act(order.number, 'refund', { refundMinor: 1500, refundedBefore: 0 })))
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 409 } })
		const sent = await refundsAtStripe(order.intent)
		// Both requests carried the one key: Stripe answers the second with the first refund.
		expect(new Set(sent.map((r) => r.idempotencyKey))).toEqual(new Set([`refund-${order.id}-0`]))
		expect(await state(order.id)).toEqual({ status: 'paid', refundedMinor: 1500 })
		expect(await refundsRecorded(order.id)).toBe(1)
	})

	it('calls Stripe for nothing that cannot be refunded: an unpaid Order, an amount over what is left, a stale form [R117, R66]', async () => {
		const unpaid = await cardOrder({ paid: false })
		await expect(orders().act(unpaid.number, 'refund', { refundMinor: 1000, refundedBefore: 0 })).rejects.toMatchObject({ status: 409 })
		const paid = await cardOrder()
		await expect(orders().act(paid.number, 'refund', { refundMinor: 5001, refundedBefore: 0 })).rejects.toMatchObject({ status: 400 })
		await orders().act(paid.number, 'refund', { refundMinor: 1000, refundedBefore: 0 })
		await expect(orders().act(paid.number, 'refund', { refundMinor: 1000, refundedBefore: 0 })).rejects.toMatchObject({ status: 409 })
		expect(await refundsAtStripe(unpaid.intent)).toEqual([])
		expect((await refundsAtStripe(paid.intent)).map((r) => r.form.amount)).toEqual(['1000'])
		expect(await state(paid.id)).toEqual({ status: 'paid', refundedMinor: 1000 })
	})
})
