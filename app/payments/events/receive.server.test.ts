import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline } from '../../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../../tests/helpers/databases'
import { genericRequest, newWebhookSecret, stripeEvent, stripeRequest, stripeSignature } from '../../../tests/helpers/events'
import { cartRepository } from '../../cart/cart.server'
import { placeOrder } from '../../orders/checkout.server'
import { connectionScope, sealSecret } from '../secret-box.server'
import { forgetEndpoints, receiveEvent } from './receive.server'

const URL_STRIPE = 'http://store.test/api/events/stripe'

describe.each(PROVIDERS)('provider events on %s (spec 6)', (provider) => {
	let t: TestDatabase
	let secret: string
	let genericSecret: string
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		secret = newWebhookSecret()
		genericSecret = newWebhookSecret()
		await t.db.connection.create({
			data: { storeId: t.storeId, handle: 'stripe', provider: 'stripe', displayName: 'Card', secretBox: sealSecret({ secretKey: 'sk_test_x', webhookSecret: secret }, connectionScope(t.storeId, 'stripe')) },
		})
		await t.db.connection.create({
			data: { storeId: t.storeId, handle: 'bank', provider: 'generic', displayName: 'Bank', secretBox: sealSecret({ webhookSecret: genericSecret }, connectionScope(t.storeId, 'bank')) },
		})
		otherStoreId = (await t.db.store.create({ data: { handle: `ev-${randomUUID()}`, name: 'Other' }, select: { id: true } })).id
	})
	afterAll(() => t.db.$disconnect())

	/** A checked-out Order paid through `handle`. */
	async function orderVia(handle: string, storeId = t.storeId) {
		if (storeId !== t.storeId) await offline(t.db, storeId)
		const product = await createProduct(t.db, storeId, { priceMinor: 5000 })
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add(product.id, 1)
		const { order } = await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })
		return order
	}
	const state = (id: string) => t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, refundedMinor: true, disputed: true, paymentNote: true } })
	const deliver = (payload: string, signature: string | null = stripeSignature(payload, secret), handle = 'stripe', now?: number) =>
		receiveEvent({ db: t.db, storeId: t.storeId, handle, request: stripeRequest(`http://store.test/api/events/${handle}`, payload, signature), now })
	const succeeded = (orderId: string, extra: { id?: string; created?: number } = {}) =>
		stripeEvent('payment_intent.succeeded', { id: `pi_${orderId.slice(0, 8)}`, object: 'payment_intent', metadata: { orderId } }, extra)

	it('applies the same event delivered 10 times exactly once (spec 6.4)', async () => {
		const order = await orderVia('stripe')
		const payload = succeeded(order.id)
		const answers = []
		for (let i = 0; i < 10; i++) answers.push(await (await deliver(payload)).json())
		expect(answers.filter((a) => a.duplicate === false)).toHaveLength(1)
		expect(answers.filter((a) => a.duplicate === true)).toHaveLength(9)
		expect((await state(order.id)).status).toBe('paid')
		const row = await t.db.providerEvent.findFirstOrThrow({ where: { orderId: order.id }, select: { duplicates: true, outcome: true } })
		expect(row).toEqual({ duplicates: 9, outcome: 'applied' })
	})

	it('answers 20 concurrent deliveries of one event with 2xx, applying it once (no unique-violation 500s)', async () => {
		const order = await orderVia('stripe')
		const payload = succeeded(order.id)
		const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(payload)))
		expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
		const bodies = await Promise.all(responses.map((r) => r.json()))
		expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1)
		expect(await t.db.providerEvent.count({ where: { orderId: order.id } })).toBe(1)
	})

	describe('out of order (spec 6.6)', () => {
		it('a late processing after succeeded leaves the Order paid', async () => {
			const order = await orderVia('stripe')
			await deliver(succeeded(order.id))
			await deliver(stripeEvent('payment_intent.processing', { id: 'pi_x', metadata: { orderId: order.id } }))
			expect((await state(order.id)).status).toBe('paid')
		})

		it('a late failure after succeeded leaves the Order paid; a failure first keeps it awaiting with the reason', async () => {
			const first = await orderVia('stripe')
			await deliver(succeeded(first.id))
			await deliver(stripeEvent('payment_intent.payment_failed', { id: 'pi_y', metadata: { orderId: first.id }, last_payment_error: { message: 'declined' } }))
			expect((await state(first.id)).status).toBe('paid')
			const second = await orderVia('stripe')
			await deliver(stripeEvent('payment_intent.payment_failed', { id: 'pi_z', metadata: { orderId: second.id }, last_payment_error: { message: 'Card declined' } }))
			expect(await state(second.id)).toMatchObject({ status: 'awaiting_payment', paymentNote: 'Payment failed: Card declined' })
			await deliver(succeeded(second.id))
			expect((await state(second.id)).status).toBe('paid')
		})

		it('a full refund that arrives before succeeded ends refunded either way round', async () => {
			const a = await orderVia('stripe')
			const refund = (orderId: string, amount: number) =>
				stripeEvent('charge.refunded', { id: `ch_${randomUUID()}`, amount: 5000, amount_refunded: amount, metadata: { orderId }, payment_intent: `pi_${orderId.slice(0, 8)}` })
			await deliver(refund(a.id, 5000))
			await deliver(succeeded(a.id))
			expect(await state(a.id)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
			const b = await orderVia('stripe')
			await deliver(succeeded(b.id))
			await deliver(refund(b.id, 5000))
			expect(await state(b.id)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
		})

		it('partial refunds are cumulative: the larger amount wins whatever the order', async () => {
			const order = await orderVia('stripe')
			await deliver(succeeded(order.id))
			const partial = (amount: number) => stripeEvent('charge.refunded', { id: `ch_${randomUUID()}`, amount: 5000, amount_refunded: amount, payment_intent: `pi_${order.id.slice(0, 8)}` })
			await deliver(partial(3000))
			await deliver(partial(1000))
			expect(await state(order.id)).toMatchObject({ status: 'paid', refundedMinor: 3000 })
		})

		it('a dispute flags the Order once', async () => {
			const order = await orderVia('stripe')
			await deliver(succeeded(order.id))
			await deliver(stripeEvent('charge.dispute.created', { id: 'dp_1', payment_intent: `pi_${order.id.slice(0, 8)}` }))
			expect(await state(order.id)).toMatchObject({ status: 'paid', disputed: true })
		})
	})

	describe('verification (spec 6.1, 6.2)', () => {
		it('refuses a missing, empty, truncated or v0-only signature, counting it without storing the body', async () => {
			const order = await orderVia('stripe')
			const payload = succeeded(order.id)
			const good = stripeSignature(payload, secret)
			const before = (await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: 'stripe' } })).rejectedEvents
			expect((await deliver(payload, null)).status).toBe(400)
			expect((await deliver(payload, '')).status).toBe(400)
			for (const signature of [good.slice(0, good.length - 10), good.replace('v1=', 'v0='), `t=${Math.floor(Date.now() / 1000)}`]) {
				expect((await deliver(payload, signature)).status, signature.slice(0, 30)).toBe(401)
			}
			const after = (await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: 'stripe' } })).rejectedEvents
			expect(after - before).toBe(5)
			expect(await t.db.providerEvent.count({ where: { payload } })).toBe(0)
			expect((await state(order.id)).status).toBe('awaiting_payment')
		})

		it('refuses a valid signature 301 s in the past and 301 s in the future', async () => {
			const order = await orderVia('stripe')
			const payload = succeeded(order.id)
			const now = Math.floor(Date.now() / 1000)
			expect((await deliver(payload, stripeSignature(payload, secret, now - 301))).status).toBe(401)
			expect((await deliver(payload, stripeSignature(payload, secret, now + 301))).status).toBe(401)
			expect((await deliver(payload, stripeSignature(payload, secret, now - 299))).status).toBe(200)
		})

		it('refuses the body re-serialised with other whitespace under the original signature', async () => {
			const order = await orderVia('stripe')
			const payload = succeeded(order.id)
			const signature = stripeSignature(payload, secret)
			const reformatted = JSON.stringify(JSON.parse(payload), null, 2)
			expect((await deliver(reformatted, signature)).status).toBe(401)
			expect((await state(order.id)).status).toBe('awaiting_payment')
		})

		it('refuses the right signature sent to another Connection’s endpoint', async () => {
			const order = await orderVia('stripe')
			const payload = succeeded(order.id)
			const response = await receiveEvent({ db: t.db, storeId: t.storeId, handle: 'bank', request: stripeRequest('http://store.test/api/events/bank', payload, stripeSignature(payload, secret)) })
			expect(response.status).toBe(400)
			expect((await state(order.id)).status).toBe('awaiting_payment')
			expect((await receiveEvent({ db: t.db, storeId: t.storeId, handle: 'no-such', request: stripeRequest(URL_STRIPE, payload, 'x') })).status).toBe(404)
		})

		it('accepts the previous secret during a rotation overlap, and not after it', async () => {
			const order = await orderVia('stripe')
			const old = newWebhookSecret()
			const next = newWebhookSecret()
			await t.db.connection.update({
				where: { storeId_handle: { storeId: t.storeId, handle: 'stripe' } },
				data: { secretBox: sealSecret({ secretKey: 'sk_test_x', webhookSecret: next, previousWebhookSecrets: [{ secret: old, expiresAt: Date.now() + 60_000 }] }, connectionScope(t.storeId, 'stripe')) },
			})
			forgetEndpoints(t.db)
			try {
				const payload = succeeded(order.id)
				expect((await deliver(payload, stripeSignature(payload, old), 'stripe', Date.now() + 120_000)).status).toBe(401)
				expect((await deliver(payload, stripeSignature(payload, old))).status).toBe(200)
			} finally {
				await t.db.connection.update({
					where: { storeId_handle: { storeId: t.storeId, handle: 'stripe' } },
					data: { secretBox: sealSecret({ secretKey: 'sk_test_x', webhookSecret: secret }, connectionScope(t.storeId, 'stripe')) },
				})
				forgetEndpoints(t.db)
			}
		})

		it('refuses an oversize body with 413', async () => {
			const payload = stripeEvent('payment_intent.succeeded', { id: 'pi', padding: 'x'.repeat(300 * 1024) })
			expect((await deliver(payload)).status).toBe(413)
		})
	})

	describe('scope (spec 6.3)', () => {
		it('changes nothing for an event that names another Store’s Order', async () => {
			const foreign = await orderVia('offline', otherStoreId)
			const response = await deliver(succeeded(foreign.id))
			expect(response.status).toBe(200)
			expect((await response.json()).outcome).toBe('unmatched')
			expect((await state(foreign.id)).status).toBe('awaiting_payment')
		})

		it('changes nothing for an Order of this Store paid through another Connection', async () => {
			const offlineOrder = await orderVia('offline')
			await deliver(succeeded(offlineOrder.id))
			expect((await state(offlineOrder.id)).status).toBe('awaiting_payment')
		})

		it('stores and acknowledges unknown event types', async () => {
			const response = await deliver(stripeEvent('customer.created', { id: 'cus_1' }))
			expect(response.status).toBe(200)
			expect((await response.json()).outcome).toBe('ignored')
		})
	})

	describe('the generic scheme (Standard Webhooks)', () => {
		it('verifies, dedupes and applies; refuses a wrong secret and an old timestamp', async () => {
			const order = await orderVia('bank')
			const body = { type: 'payment.succeeded', occurred_at: Math.floor(Date.now() / 1000), data: { order_id: order.id } }
			const url = 'http://store.test/api/events/bank'
			const receive = (request: Request) => receiveEvent({ db: t.db, storeId: t.storeId, handle: 'bank', request })
			expect((await receive(genericRequest(url, body, newWebhookSecret()))).status).toBe(401)
			expect((await receive(genericRequest(url, body, genericSecret, { timestamp: new Date(Date.now() - 301_000) }))).status).toBe(401)
			const delivery = genericRequest(url, body, genericSecret, { id: 'msg_fixed' })
			expect((await (await receive(delivery.clone())).json()).duplicate).toBe(false)
			expect((await (await receive(delivery)).json()).duplicate).toBe(true)
			expect((await state(order.id)).status).toBe('paid')
		})
	})
})
