import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { cartRepository } from '../cart/cart.server'
import { placeOrder } from './checkout.server'
import { applyPaymentEvent, linkPaymentIntent, type PaymentEffect, paymentFields, recordProviderRef, transitionOrder } from './orders.server'
import { unverifiedScope } from '../data/scope'

describe.each(PROVIDERS)('order transitions and the payment-event seam on %s', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
	})
	afterAll(() => t.db.$disconnect())

	/** A 15.00 USD Order. */
	async function newOrder() {
		const product = await createProduct(t.db, t.storeId, { priceMinor: 1500 })
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		return (await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })).order
	}
	const row = (id: string) =>
		t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, capturedMinor: true, refundedMinor: true, paymentNote: true, paidAt: true } })
	const apply = (orderId: string, effect: PaymentEffect, storeId = t.storeId) => applyPaymentEvent(t.db, unverifiedScope(t.db, storeId), { orderId, effect })
	const paid = (amountMinor: number | null, currency: string | null = 'USD'): PaymentEffect => ({ kind: 'paid', amountMinor, currency })
	const refund = (refundedMinor: number | null, currency: string | null = 'USD'): PaymentEffect => ({ kind: 'refund', refundedMinor, currency })

	it('pays an Order only for at least its total in its currency, recording what was captured [R66]', async () => {
		const order = await newOrder()
		expect((await apply(order.id, paid(1))).outcome).toBe('review')
		expect((await apply(order.id, paid(null))).outcome).toBe('review')
		expect((await apply(order.id, paid(1500, 'JPY'))).outcome).toBe('review')
		expect((await apply(order.id, paid(1500, null))).outcome).toBe('review')
		expect(await row(order.id)).toMatchObject({ status: 'awaiting_payment', capturedMinor: 0, paidAt: null })
		expect(await apply(order.id, paid(1600, 'usd'))).toEqual({
			outcome: 'applied',
			summary: `Order #${order.number}: marked paid (1600 USD minor units captured).`,
		})
		expect(await row(order.id)).toMatchObject({ status: 'paid', capturedMinor: 1600 })
	})

	it('applies a payment once; a repeat or a late failure changes nothing [R64]', async () => {
		const order = await newOrder()
		expect((await apply(order.id, paid(1500))).outcome).toBe('applied')
		expect((await apply(order.id, paid(1500))).outcome).toBe('stale')
		expect((await apply(order.id, { kind: 'failed', reason: 'late' })).outcome).toBe('stale')
		expect(await row(order.id)).toMatchObject({ status: 'paid', capturedMinor: 1500, paymentNote: null })
	})

	it('records a failure on an unpaid Order without moving it', async () => {
		const order = await newOrder()
		expect((await apply(order.id, { kind: 'failed', reason: 'Card declined' })).outcome).toBe('applied')
		expect(await row(order.id)).toMatchObject({ status: 'awaiting_payment', paymentNote: 'Payment failed: Card declined' })
	})

	it('never pays an Order with a refund, and never refunds more than was captured [R66]', async () => {
		const order = await newOrder()
		expect((await apply(order.id, refund(1))).outcome).toBe('held')
		expect(await row(order.id)).toMatchObject({ status: 'awaiting_payment', refundedMinor: 0, paidAt: null })
		await apply(order.id, paid(1500))
		expect((await apply(order.id, refund(1501))).outcome).toBe('review')
		expect((await apply(order.id, refund(500, 'EUR'))).outcome).toBe('review')
		expect((await apply(order.id, refund(500))).outcome).toBe('applied')
		expect((await apply(order.id, refund(400))).outcome).toBe('stale')
		expect((await apply(order.id, refund(1500))).outcome).toBe('applied')
		expect(await row(order.id)).toMatchObject({ status: 'refunded', refundedMinor: 1500 })
	})

	it('refuses a refund for an Order that was cancelled unpaid [R66]', async () => {
		const order = await newOrder()
		await transitionOrder(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, to: 'cancelled' })
		expect((await apply(order.id, refund(1500))).outcome).toBe('review')
		expect(await row(order.id)).toMatchObject({ status: 'cancelled', refundedMinor: 0 })
	})

	it('never moves an Order backwards or out of a final state', async () => {
		const order = await newOrder()
		expect(await transitionOrder(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, to: 'cancelled' })).toBe(true)
		expect((await apply(order.id, paid(1500))).outcome).toBe('stale')
		expect(await transitionOrder(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, to: 'awaiting_payment' })).toBe(false)
		expect((await row(order.id)).status).toBe('cancelled')
	})

	it('refuses another Store’s Order with 404 and changes nothing', async () => {
		const order = await newOrder()
		await expect(transitionOrder(t.db, unverifiedScope(t.db, 'another-store'), { orderId: order.id, to: 'paid' })).rejects.toMatchObject({ status: 404 })
		await expect(apply(order.id, paid(1500), 'another-store')).rejects.toMatchObject({ status: 404 })
		expect((await recordProviderRef(unverifiedScope(t.db, 'another-store'), { orderId: order.id, providerRef: 'cs_x' })).count).toBe(0)
		expect(await linkPaymentIntent(t.db, unverifiedScope(t.db, 'another-store'), { orderId: order.id, paymentIntentRef: 'pi_x' })).toBeNull()
		expect((await row(order.id)).status).toBe('awaiting_payment')
	})

	it('applies one of several racing deliveries of the same payment', async () => {
		const order = await newOrder()
		const results = await Promise.all(Array.from({ length: 5 }, () => apply(order.id, paid(1500))))
		expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1)
		expect((await row(order.id)).status).toBe('paid')
	})

	it('decides again on the Order as another event left it: a missed conditional write is never the end of an event [R68]', async () => {
		const scope = unverifiedScope(t.db, t.storeId)
		const read = (id: string) => t.db.order.findUniqueOrThrow({ where: { id }, select: paymentFields })
		// `seen` is the Order as this event read it; another event changed it before this one wrote.
		const decide = async (id: string, effect: PaymentEffect, seen: Awaited<ReturnType<typeof read>>) =>
			applyPaymentEvent(t.db, scope, { orderId: id, effect, known: seen })

		// A larger refund total than the one recorded meanwhile is applied, not dropped as stale.
		const refunded = await newOrder()
		await apply(refunded.id, paid(1500))
		const beforeRefunds = await read(refunded.id)
		expect((await apply(refunded.id, refund(500))).outcome).toBe('applied')
		expect(await decide(refunded.id, refund(900), beforeRefunds)).toEqual({
			outcome: 'applied',
			summary: `Order #${refunded.number}: refunds of 900 USD minor units recorded.`,
		})
		expect(await row(refunded.id)).toMatchObject({ status: 'paid', refundedMinor: 900 })
		// A smaller one is superseded: stale, and the larger stays.
		const beforeWhole = await read(refunded.id)
		expect((await apply(refunded.id, refund(1500))).outcome).toBe('applied')
		expect(await decide(refunded.id, refund(1200), beforeWhole)).toMatchObject({ outcome: 'stale' })
		expect(await row(refunded.id)).toMatchObject({ status: 'refunded', refundedMinor: 1500 })

		// A failure or a second payment decided on an unpaid Order that was paid meanwhile: stale,
		// never `applied` for a note that was not written.
		const unpaid = await newOrder()
		const beforePayment = await read(unpaid.id)
		await apply(unpaid.id, paid(1500))
		expect(await decide(unpaid.id, { kind: 'failed', reason: 'late' }, beforePayment)).toEqual({
			outcome: 'stale',
			summary: `Order #${unpaid.number}: already paid; nothing changed.`,
		})
		expect(await decide(unpaid.id, paid(1500), beforePayment)).toMatchObject({ outcome: 'stale', summary: expect.stringContaining('already paid') })
		expect(await row(unpaid.id)).toMatchObject({ status: 'paid', paymentNote: null })

		// A dispute flagged meanwhile is flagged once.
		const disputed = await newOrder()
		const beforeDispute = await read(disputed.id)
		expect((await apply(disputed.id, { kind: 'dispute' })).outcome).toBe('applied')
		expect(await decide(disputed.id, { kind: 'dispute' }, beforeDispute)).toMatchObject({ outcome: 'stale' })
	})

	it('records what an admin marking an offline payment paid captured: the total [R66]', async () => {
		const order = await newOrder()
		expect(await transitionOrder(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, to: 'paid' })).toBe(true)
		expect(await row(order.id)).toMatchObject({ status: 'paid', capturedMinor: 1500 })
	})

	it('links a payment in the write that pays, only while the Order is as the caller read it [R64, R66]', async () => {
		const scope = unverifiedScope(t.db, t.storeId)
		const read = (id: string) => t.db.order.findUniqueOrThrow({ where: { id }, select: paymentFields })
		const linked = async (id: string) => (await t.db.order.findUniqueOrThrow({ where: { id }, select: { paymentIntentRef: true } })).paymentIntentRef

		// Cancelled after the caller read it: nothing is paid and nothing linked.
		const cancelled = await newOrder()
		const seenBeforeCancel = await read(cancelled.id)
		expect(await transitionOrder(t.db, scope, { orderId: cancelled.id, to: 'cancelled' })).toBe(true)
		expect(await applyPaymentEvent(t.db, scope, { orderId: cancelled.id, effect: paid(1500), known: seenBeforeCancel, linking: 'pi_late' })).toMatchObject({
			outcome: 'stale',
		})
		expect(await row(cancelled.id)).toMatchObject({ status: 'cancelled', capturedMinor: 0, paidAt: null })
		expect(await linked(cancelled.id)).toBeNull()

		// Linked to another payment after the caller read it: that link stays, and the Order stays unpaid.
		const other = await newOrder()
		const seenUnlinked = await read(other.id)
		expect(await linkPaymentIntent(t.db, scope, { orderId: other.id, paymentIntentRef: 'pi_other' })).not.toBeNull()
		expect(await applyPaymentEvent(t.db, scope, { orderId: other.id, effect: paid(1500), known: seenUnlinked, linking: 'pi_mine' })).toMatchObject({
			outcome: 'stale',
		})
		expect(await row(other.id)).toMatchObject({ status: 'awaiting_payment', capturedMinor: 0 })
		expect(await linked(other.id)).toBe('pi_other')

		// Short: neither paid nor linked.
		const short = await newOrder()
		expect(await applyPaymentEvent(t.db, scope, { orderId: short.id, effect: paid(1499), known: await read(short.id), linking: 'pi_short' })).toMatchObject({
			outcome: 'review',
		})
		expect(await linked(short.id)).toBeNull()

		// As read: paid and linked in one write.
		const fine = await newOrder()
		expect(await applyPaymentEvent(t.db, scope, { orderId: fine.id, effect: paid(1500), known: await read(fine.id), linking: 'pi_fine' })).toMatchObject({
			outcome: 'applied',
		})
		expect(await row(fine.id)).toMatchObject({ status: 'paid', capturedMinor: 1500 })
		expect(await linked(fine.id)).toBe('pi_fine')
	})

	it('keeps the reference a paid Order was paid through, and links its payment once [R66]', async () => {
		const order = await newOrder()
		await recordProviderRef(unverifiedScope(t.db, t.storeId), { orderId: order.id, providerRef: 'cs_first' })
		// The link answers the Order's payment state as it left it; a second link answers null.
		expect(await linkPaymentIntent(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, paymentIntentRef: 'pi_first' })).toMatchObject({
			status: 'awaiting_payment',
			totalMinor: 1500,
			paidAt: null,
		})
		expect(await linkPaymentIntent(t.db, unverifiedScope(t.db, t.storeId), { orderId: order.id, paymentIntentRef: 'pi_second' })).toBeNull()
		await apply(order.id, paid(1500))
		await recordProviderRef(unverifiedScope(t.db, t.storeId), { orderId: order.id, providerRef: 'cs_second' })
		expect(await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { providerRef: true, paymentIntentRef: true } })).toEqual({
			providerRef: 'cs_first',
			paymentIntentRef: 'pi_first',
		})
	})
})
