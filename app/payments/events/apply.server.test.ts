import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, startedCardOrder } from '../../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin } from '../../../tests/helpers/databases'
import { holdLocks, someoneWaitsForALock } from '../../../tests/helpers/locks'
import { genericRequest, newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../../tests/helpers/events'
import { cartRepository } from '../../cart/cart.server'
import type { Db } from '../../data/db.server'
import type { AdminViewer } from '../../data/viewer'
import { adminOrdersRepository } from '../../orders/admin-orders.server'
import { placeOrder } from '../../orders/checkout.server'
import { adminConnectionsRepository } from '../admin-connections.server'
import { eventInboxRepository } from './inbox.server'
import { receiveEvent } from './receive.server'
import { applyAllReceived } from './worker.server'
import { deliverAndApply } from '../../../tests/helpers/event-delivery'
import { unverifiedScope } from '../../data/scope'

/** Handles of this file's own Connections: other test files share the database. */
const STRIPE = 'rc-stripe'
const BANK = 'rc-bank'

describe.each(PROVIDERS)('provider events reconcile with the Order on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	const stripeSecret = newWebhookSecret()
	const bankSecret = newWebhookSecret()

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		admin = (await signUpAdmin(t)).viewer
		const connections = adminConnectionsRepository(t.db, admin)
		await connections.create({ provider: 'stripe', handle: STRIPE, displayName: 'Card', secretKey: 'sk_test_x', webhookSecret: stripeSecret })
		await connections.create({ provider: 'generic', handle: BANK, displayName: 'Bank', webhookSecret: bankSecret })
	})
	afterAll(() => t.db.$disconnect())

	/** A 50.00 USD Order placed through `handle`. */
	async function placed(handle: string) {
		const product = await createProduct(t.db, t.storeId, { priceMinor: 5000 })
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		return (await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })).order
	}
	/** A Stripe Order whose Checkout Session the store started (and recorded), and the PaymentIntent Stripe will create. */
	async function started() {
		const { order, sessionId, paymentIntentId } = await startedCardOrder(t.db, t.storeId, STRIPE)
		return { order, orderId: order.id, sessionId, paymentIntentId }
	}
	/** Started, then paid in full through its Session (the PaymentIntent linked). */
	async function paid() {
		const o = await started()
		expect((await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }))).outcome).toBe('applied')
		return o
	}
	async function deliver(payload: string, db: Db = t.db) {
		const delivered = await deliverAndApply(unverifiedScope(db, t.storeId), {
			handle: STRIPE,
			request: stripeRequest(`http://store.test/api/events/${STRIPE}`, payload, stripeSignature(payload, stripeSecret)),
		})
		expect(delivered.status).toBe(200)
		return delivered
	}
	const state = (id: string) =>
		t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, capturedMinor: true, refundedMinor: true, paymentIntentRef: true, paidAt: true } })
	const row = (payload: string) =>
		t.db.providerEvent.findFirstOrThrow({
			where: { storeId: t.storeId, providerEventId: (JSON.parse(payload) as { id: string }).id },
			select: { id: true, outcome: true, summary: true, orderId: true, otherOrderId: true, awaitingRef: true },
		})

	it('pays an Order for its own Checkout Session in full and in its currency, recording what was captured [R66]', async () => {
		const o = await started()
		await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }))
		expect(await state(o.orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000, paymentIntentRef: o.paymentIntentId })
	})

	it('holds a 1-cent payment for review: the Order stays unpaid [R66]', async () => {
		const o = await started()
		// The Session completed without payment yet (an asynchronous method): it links the PaymentIntent.
		await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000, paid: false }))
		const cent = stripeEvents.intentSucceeded({ paymentIntentId: o.paymentIntentId, amountReceived: 1, orderId: o.orderId })
		expect((await deliver(cent)).outcome).toBe('review')
		expect(await state(o.orderId)).toMatchObject({ status: 'awaiting_payment', capturedMinor: 0, paymentIntentRef: o.paymentIntentId })
		expect((await row(cent)).summary).toContain('amount short: 1 USD minor units paid of 5000 USD minor units owed')
		await deliver(stripeEvents.intentSucceeded({ paymentIntentId: o.paymentIntentId, amountReceived: 5000, orderId: o.orderId }))
		expect(await state(o.orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000 })
	})

	it('holds a payment in another currency for review: JPY on a USD Order, an EUR Session [R66]', async () => {
		const a = await started()
		await deliver(stripeEvents.sessionCompleted({ ...a, amount: 5000, paid: false }))
		const yen = stripeEvents.intentSucceeded({ paymentIntentId: a.paymentIntentId, amountReceived: 5000, currency: 'jpy', orderId: a.orderId })
		expect((await deliver(yen)).outcome).toBe('review')
		expect((await row(yen)).summary).toContain('paid in JPY, but the order is in USD')
		const b = await started()
		const euros = stripeEvents.sessionCompleted({ ...b, amount: 5000, currency: 'eur' })
		expect((await deliver(euros)).outcome).toBe('review')
		expect((await state(a.orderId)).status).toBe('awaiting_payment')
		expect((await state(b.orderId)).status).toBe('awaiting_payment')
	})

	it('never selects an Order by metadata alone: a payment naming a reference the store did not record is held [R66]', async () => {
		const o = await started()
		const stranger = stripeEvents.intentSucceeded({ paymentIntentId: `pi_unknown_${randomUUID().slice(0, 8)}`, amountReceived: 5000, orderId: o.orderId })
		expect((await deliver(stranger)).outcome).toBe('review')
		expect(await row(stranger)).toMatchObject({ orderId: o.orderId, awaitingRef: expect.stringMatching(/^pi_unknown_/) })
		const otherSession = stripeEvents.sessionCompleted({ ...o, sessionId: 'cs_test_not_recorded', amount: 5000 })
		expect((await deliver(otherSession)).outcome).toBe('review')
		expect((await state(o.orderId)).status).toBe('awaiting_payment')
	})

	it('never makes an unpaid Order paid because of a refund; the refund waits for the payment [R66, R65]', async () => {
		const o = await started()
		await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000, paid: false }))
		const refund = stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 1, amount: 5000 })
		expect((await deliver(refund)).outcome).toBe('review')
		expect(await state(o.orderId)).toMatchObject({ status: 'awaiting_payment', refundedMinor: 0, paidAt: null })
		await deliver(stripeEvents.intentSucceeded({ paymentIntentId: o.paymentIntentId, amountReceived: 5000 }))
		expect(await state(o.orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000, refundedMinor: 1 })
		expect(await row(refund)).toMatchObject({ outcome: 'applied', awaitingRef: null })
	})

	it('never refunds more than was captured [R66]', async () => {
		const o = await paid()
		const tooMuch = stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 5001, amount: 5001 })
		expect((await deliver(tooMuch)).outcome).toBe('review')
		expect(await state(o.orderId)).toMatchObject({ status: 'paid', refundedMinor: 0 })
		await deliver(stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 5000 }))
		expect(await state(o.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
	})

	it('refunds neither Order when a refund’s payment names one and its metadata another (conflict) [R66]', async () => {
		const x = await paid()
		const y = await paid()
		const refund = stripeEvents.chargeRefunded({ paymentIntentId: x.paymentIntentId, amountRefunded: 5000, orderId: y.orderId })
		expect((await deliver(refund)).outcome).toBe('conflict')
		expect(await row(refund)).toMatchObject({ orderId: x.orderId, otherOrderId: y.orderId })
		expect(await state(x.orderId)).toMatchObject({ status: 'paid', refundedMinor: 0 })
		expect(await state(y.orderId)).toMatchObject({ status: 'paid', refundedMinor: 0 })
	})

	it('records a conflict when a Session and its PaymentIntent name different Orders, and moves neither [R66]', async () => {
		const x = await paid()
		const y = await started()
		const crossed = stripeEvents.sessionCompleted({ ...y, paymentIntentId: x.paymentIntentId, amount: 5000 })
		expect((await deliver(crossed)).outcome).toBe('conflict')
		expect(await row(crossed)).toMatchObject({ orderId: y.orderId, otherOrderId: x.orderId })
		const relabelled = stripeEvents.sessionCompleted({ ...y, orderId: x.orderId, amount: 5000 })
		expect((await deliver(relabelled)).outcome).toBe('conflict')
		expect(await state(y.orderId)).toMatchObject({ status: 'awaiting_payment', paymentIntentRef: null })
		expect((await state(x.orderId)).status).toBe('paid')
	})

	it('applies a refund that arrived before the Session linking its PaymentIntent, once, when the link appears [R65]', async () => {
		const o = await started()
		const early = stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 5000 })
		expect((await deliver(early)).outcome).toBe('unmatched')
		expect(await row(early)).toMatchObject({ awaitingRef: o.paymentIntentId })
		expect((await state(o.orderId)).status).toBe('awaiting_payment')

		await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }))
		expect(await state(o.orderId)).toMatchObject({ status: 'refunded', capturedMinor: 5000, refundedMinor: 5000 })
		const settled = await row(early)
		expect(settled).toMatchObject({ outcome: 'applied', orderId: o.orderId, awaitingRef: null })
		expect(settled.summary).toContain('refunds of 5000 USD minor units recorded; fully refunded')

		// Later events naming the same payment, and a replay, find nothing left to apply.
		await deliver(stripeEvents.intentSucceeded({ paymentIntentId: o.paymentIntentId, amountReceived: 5000 }))
		expect((await eventInboxRepository(t.db, admin).replay(settled.id)).outcome).toBe('stale')
		expect(await row(early)).toEqual(settled)
		expect(await t.db.providerEvent.count({ where: { storeId: t.storeId, awaitingRef: o.paymentIntentId } })).toBe(0)
	})

	it('wakes held events by what this delivery settled, not by every reference settled before it in the process [R65]', async () => {
		// The keys each delivery looks for among held events, read from the query it sends.
		const asked: string[][] = []
		const watched = t.db.$extends({
			query: {
				providerEvent: {
					findMany({ args, query }) {
						const keys = (args.where?.awaitingRef as { in?: string[] } | undefined)?.in
						if (keys) asked.push(keys)
						return query(args)
					},
				},
			},
		}) as unknown as Db
		for (let i = 0; i < 3; i++) {
			const o = await started()
			await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }), watched)
			expect(await state(o.orderId)).toMatchObject({ status: 'paid' })
			// Its PaymentIntent was linked and its Order paid: those two, and nothing of another Order.
			expect(asked.at(-1)?.toSorted()).toEqual([o.paymentIntentId, `order:${o.orderId}`].toSorted())
		}
		expect(asked).toHaveLength(3)
	})

	it('settles a refund and the Session linking its payment that arrive at the same instant, whichever commits first [R65]', async () => {
		const orders = []
		for (let i = 0; i < 8; i++) orders.push(await started())
		await Promise.all(
			orders.flatMap((o) => [
				deliver(stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 5000 })),
				deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 })),
			]),
		)
		for (const o of orders) expect(await state(o.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
		expect(await t.db.providerEvent.count({ where: { storeId: t.storeId, awaitingRef: { in: orders.map((o) => o.paymentIntentId) } } })).toBe(0)
	})

	/**
	 * Refund events of one Order delivered at the same instant, cumulative totals in a shuffled
	 * order. On PostgreSQL each commits on its own connection: the ones that lose the race must read
	 * the Order again and decide anew, not give up. `deliverRefund` sends one, by either provider.
	 */
	async function concurrentRefunds(deliverRefund: (amount: number) => Promise<{ outcome: string }>, amounts: number[], orderId: string) {
		const order = [...amounts].sort(() => Math.random() - 0.5)
		const answers = await Promise.all(order.map((amount) => deliverRefund(amount)))
		const largest = Math.max(...amounts)
		expect(await state(orderId)).toMatchObject({ refundedMinor: largest, status: largest === 5000 ? 'refunded' : 'paid' })
		// Every row is final: recorded, applied or superseded (`stale`), none waiting; the largest applied.
		const rows = await t.db.providerEvent.findMany({
			where: { storeId: t.storeId, orderId, type: { in: ['charge.refunded', 'refund.succeeded'] } },
			select: { outcome: true, awaitingRef: true },
		})
		expect(rows).toHaveLength(amounts.length)
		for (const row of rows) expect(row).toEqual({ outcome: expect.stringMatching(/^(applied|stale)$/), awaitingRef: null })
		expect(answers[order.indexOf(largest)]!.outcome).toBe('applied')
	}
	/** The titles below say 20: the capability registry names the first by its exact title. */
	const ROUNDS = 20
	/** Forty Orders paid and refunded at once, each round: more than a unit test's usual time on a busy machine. */
	const CONVERGENCE_MS = 180_000
	/** Round `i`'s cumulative totals: two events, then three; some reach the whole capture (5000). */
	const refundRound = (round: number) => [round % 2 ? [1000, 3000] : [1000, 5000], round % 2 ? [1000, 3000, 2000] : [2000, 5000, 4000]]

	it(
		'converges on the largest refund when 20 rounds of two and of three Stripe refunds of one Order arrive at once [R68]',
		async () => {
			for (let round = 0; round < ROUNDS; round++) {
				for (const amounts of refundRound(round)) {
					const o = await paid()
					await concurrentRefunds(
						(amountRefunded) => deliver(stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded, amount: 5000 })),
						amounts,
						o.orderId,
					)
				}
			}
		},
		CONVERGENCE_MS,
	)

	it('replays a stored event through the same reconciliation: a short payment or a conflict still moves nothing [R66]', async () => {
		const inbox = eventInboxRepository(t.db, admin)
		const o = await started()
		const cent = stripeEvents.sessionCompleted({ ...o, amount: 1 })
		expect((await deliver(cent)).outcome).toBe('review')
		expect(await inbox.replay((await row(cent)).id)).toMatchObject({ outcome: 'review', orderId: o.orderId })
		expect(await state(o.orderId)).toMatchObject({ status: 'awaiting_payment', capturedMinor: 0 })

		const x = await paid()
		const y = await paid()
		const refund = stripeEvents.chargeRefunded({ paymentIntentId: x.paymentIntentId, amountRefunded: 5000, orderId: y.orderId })
		await deliver(refund)
		expect((await inbox.replay((await row(refund)).id)).outcome).toBe('conflict')
		expect((await state(x.orderId)).refundedMinor + (await state(y.orderId)).refundedMinor).toBe(0)
		expect((await row(refund)).outcome).toBe('conflict')
	})

	describe('the generic scheme', () => {
		async function send(body: { type: string; data: Record<string, unknown> }) {
			const request = genericRequest(`http://store.test/api/events/${BANK}`, { ...body, occurred_at: Math.floor(Date.now() / 1000) }, bankSecret)
			const { status, outcome } = await deliverAndApply(unverifiedScope(t.db, t.storeId), { handle: BANK, request })
			expect(status).toBe(200)
			return outcome
		}

		it('pays only the Order whose number is quoted, for at least its total in its currency [R66]', async () => {
			const order = await placed(BANK)
			const other = await placed(BANK)
			const pay = (data: Record<string, unknown>) => send({ type: 'payment.succeeded', data })
			expect(await pay({ reference: `#${order.number}`, amount: 4999, currency: 'USD' })).toBe('review')
			expect(await pay({ reference: String(order.number), amount: 5000, currency: 'EUR' })).toBe('review')
			expect(await pay({ order_id: order.id, amount: 5000, currency: 'USD' })).toBe('review')
			expect(await pay({ reference: String(other.number), order_id: order.id, amount: 5000, currency: 'USD' })).toBe('conflict')
			expect((await state(order.id)).status).toBe('awaiting_payment')
			expect((await state(other.id)).status).toBe('awaiting_payment')

			expect(await pay({ reference: `#${order.number}`, amount: 5000, currency: 'usd' })).toBe('applied')
			expect(await state(order.id)).toMatchObject({ status: 'paid', capturedMinor: 5000 })
			expect(await send({ type: 'refund.succeeded', data: { reference: String(order.number), amount_refunded: 6000, currency: 'USD' } })).toBe('review')
			expect(await send({ type: 'refund.succeeded', data: { reference: String(order.number), amount_refunded: 5000, currency: 'USD' } })).toBe('applied')
			expect(await state(order.id)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
		})

		it(
			'converges on the largest refund when 20 rounds of two and of three Standard Webhooks refunds arrive at once [R68]',
			async () => {
				for (let round = 0; round < ROUNDS; round++) {
					for (const amounts of refundRound(round)) {
						const order = await placed(BANK)
						expect(await send({ type: 'payment.succeeded', data: { reference: String(order.number), amount: 5000, currency: 'USD' } })).toBe('applied')
						await concurrentRefunds(
							async (amount) => ({
								outcome: await send({ type: 'refund.succeeded', data: { reference: String(order.number), amount_refunded: amount, currency: 'USD' } }),
							}),
							amounts,
							order.id,
						)
					}
				}
			},
			CONVERGENCE_MS,
		)

		it('settles a refund held for an unpaid Order when an admin replays it after marking the Order paid [R65, R66]', async () => {
			const order = await placed(BANK)
			expect(await send({ type: 'refund.succeeded', data: { reference: String(order.number), amount_refunded: 2000, currency: 'USD' } })).toBe('review')
			const held = await t.db.providerEvent.findFirstOrThrow({ where: { storeId: t.storeId, orderId: order.id }, select: { id: true, awaitingRef: true } })
			expect(held.awaitingRef).toBe(`order:${order.id}`)
			await adminOrdersRepository(t.db, admin).act(order.number, 'mark_paid')
			expect(await eventInboxRepository(t.db, admin).replay(held.id)).toMatchObject({ outcome: 'applied', awaitingRef: null })
			expect(await t.db.providerEvent.findUniqueOrThrow({ where: { id: held.id }, select: { outcome: true, awaitingRef: true } })).toEqual({
				outcome: 'applied',
				awaitingRef: null,
			})
			expect(await state(order.id)).toMatchObject({ status: 'paid', capturedMinor: 5000, refundedMinor: 2000 })
		})
	})
})

/**
 * On PostgreSQL the Connection's row is what a paying event and a held one meet on: each takes
 * its lock before deciding, so neither commits without seeing the other (docs/decisions/029).
 * SQLite takes one writer at a time, so there is nothing of its own to show there.
 */
describe.each(PROVIDERS.filter((provider) => provider === 'postgresql'))('the Connection lock of provider events on %s', (provider) => {
	const HANDLE = 'rc-lock'
	const secret = newWebhookSecret()
	let t: TestDatabase
	let connectionId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		const { viewer } = await signUpAdmin(t)
		await adminConnectionsRepository(t.db, viewer).create({
			provider: 'stripe',
			handle: HANDLE,
			displayName: 'Card',
			secretKey: 'sk_test_x',
			webhookSecret: secret,
		})
		connectionId = (await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: HANDLE }, select: { id: true } })).id
	})
	afterAll(() => t.db.$disconnect())

	const scope = () => unverifiedScope(t.db, t.storeId)
	const receive = (payload: string) =>
		receiveEvent(scope(), { handle: HANDLE, request: stripeRequest(`http://store.test/api/events/${HANDLE}`, payload, stripeSignature(payload, secret)) })
	const deliver = async (payload: string) =>
		(
			await deliverAndApply(scope(), {
				handle: HANDLE,
				request: stripeRequest(`http://store.test/api/events/${HANDLE}`, payload, stripeSignature(payload, secret)),
			})
		).outcome

	/** A Stripe Order of this Connection whose Checkout Session the store recorded, and the event that pays it. */
	async function started() {
		const { order, sessionId, paymentIntentId } = await startedCardOrder(t.db, t.storeId, HANDLE)
		return { order, payment: stripeEvents.sessionCompleted({ sessionId, paymentIntentId, orderId: order.id, amount: 5000 }) }
	}

	it('keeps and answers a delivery while the Connection’s row is held; the worker applies it once the row is released [R63, R65]', async () => {
		const { order, payment } = await started()
		// Another transaction holds the row as an UPDATE holds it (FOR NO KEY UPDATE), until released.
		const release = await holdLocks(t.url, (tx) => tx.$executeRaw`SELECT 1 FROM "connections" WHERE "id" = ${connectionId} FOR NO KEY UPDATE`)
		let applying: Promise<number> | undefined
		try {
			// The intake asks for no lock: the provider is answered now.
			expect((await receive(payment)).status).toBe(200)
			let applied = -1
			applying = applyAllReceived(scope(), { connectionId })
			void applying.then((count) => (applied = count))
			await new Promise((resolve) => setTimeout(resolve, 400))
			expect(applied).toBe(-1)
			expect((await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).status).toBe('awaiting_payment')
		} finally {
			await release()
		}
		expect(await applying).toBe(1)
		expect((await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } })).status).toBe('paid')
	})

	it('resolves a Session event again when another event linked its Order first, and pays nothing for another payment [R68, R66]', async () => {
		const { order, payment } = await started()
		// Another event links a different payment to the Order and commits while this one waits for the row.
		const commit = await holdLocks(t.url, (tx) => tx.order.updateMany({ where: { id: order.id }, data: { paymentIntentRef: 'pi_linked_first' } }), {
			commit: true,
		})
		const delivering = deliver(payment)
		await someoneWaitsForALock(t.db)
		await commit()
		expect(await delivering).toBe('conflict')
		expect(await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, paymentIntentRef: true } })).toEqual({
			status: 'awaiting_payment',
			paymentIntentRef: 'pi_linked_first',
		})
	})

	it('leaves the Connection’s own fields as they were when it takes the lock [R65]', async () => {
		const before = await t.db.connection.findUniqueOrThrow({ where: { id: connectionId }, select: { rejectedEvents: true, updatedAt: true } })
		const { payment } = await started()
		expect(await deliver(payment)).toBe('applied')
		expect(await t.db.connection.findUniqueOrThrow({ where: { id: connectionId }, select: { rejectedEvents: true, updatedAt: true } })).toEqual(before)
	})
})
