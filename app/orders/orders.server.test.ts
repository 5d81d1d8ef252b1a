import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { cartRepository } from '../cart/cart.server'
import { placeOrder } from './checkout.server'
import { applyPaymentEvent, transitionOrder } from './orders.server'

describe.each(PROVIDERS)('order transitions and the payment-event seam on %s', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
	})
	afterAll(() => t.db.$disconnect())

	async function newOrder() {
		const product = await createProduct(t.db, t.storeId)
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add(product.id, 1)
		return (await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })).order
	}
	const statusOf = async (id: string) => (await t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true } })).status

	it('applies a payment success once; a repeat or a late failure changes nothing', async () => {
		const order = await newOrder()
		expect(await applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'succeeded' })).toBe(true)
		expect(await applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'succeeded' })).toBe(false)
		expect(await applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'failed', note: 'late' })).toBe(false)
		expect(await statusOf(order.id)).toBe('paid')
		expect((await t.db.order.findUniqueOrThrow({ where: { id: order.id } })).paidAt).not.toBeNull()
	})

	it('records a failure on an unpaid Order without moving it', async () => {
		const order = await newOrder()
		expect(await applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'failed', note: 'Card declined' })).toBe(true)
		const row = await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, paymentNote: true } })
		expect(row).toEqual({ status: 'awaiting_payment', paymentNote: 'Card declined' })
	})

	it('never moves an Order backwards or out of a final state', async () => {
		const order = await newOrder()
		expect(await transitionOrder(t.db, { storeId: t.storeId, orderId: order.id, to: 'cancelled' })).toBe(true)
		expect(await applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'succeeded' })).toBe(false)
		expect(await transitionOrder(t.db, { storeId: t.storeId, orderId: order.id, to: 'awaiting_payment' })).toBe(false)
		expect(await statusOf(order.id)).toBe('cancelled')
	})

	it('refuses another Store’s Order with 404 and changes nothing', async () => {
		const order = await newOrder()
		await expect(transitionOrder(t.db, { storeId: 'another-store', orderId: order.id, to: 'paid' })).rejects.toMatchObject({ status: 404 })
		expect(await applyPaymentEvent(t.db, { storeId: 'another-store', orderId: order.id, outcome: 'failed' })).toBe(false)
		expect(await statusOf(order.id)).toBe('awaiting_payment')
	})

	it('applies one of several racing deliveries of the same success', async () => {
		const order = await newOrder()
		const results = await Promise.all(
			Array.from({ length: 5 }, () => applyPaymentEvent(t.db, { storeId: t.storeId, orderId: order.id, outcome: 'succeeded' })),
		)
		expect(results.filter(Boolean)).toHaveLength(1)
		expect(await statusOf(order.id)).toBe('paid')
	})
})
