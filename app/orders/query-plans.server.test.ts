import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, asCustomer, createProduct, newGuest, offline, startedCardOrder } from '../../tests/helpers/commerce'
import { type TestDatabase, openTestDatabase, signUpAdmin, signUpCustomer } from '../../tests/helpers/databases'
import { genericRequest, newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../tests/helpers/events'
import { type Plan, plansOf } from '../../tests/helpers/query-plans'
import { cartRepository } from '../cart/cart.server'
import type { AdminViewer, Viewer } from '../data/viewer'
import { adminOrdersRepository } from './admin-orders.server'
import { placeOrder } from './checkout.server'
import { dashboardRepository } from './dashboard.server'
import { customerOrdersRepository, ordersRepository } from './orders.server'
import { adminConnectionsRepository } from '../payments/admin-connections.server'
import { deliverAndApply } from '../../tests/helpers/event-delivery'
import { unverifiedScope } from '../data/scope'

const STRIPE = 'qp-stripe'
const BANK = 'qp-bank'

/** Tables that grow with every sale, every shopper or the catalog, where a walk costs more each day. */
const GROWING = [
	'orders',
	'order_lines',
	'carts',
	'cart_lines',
	'provider_events',
	'outbox_mail',
	'audit_entries',
	'products',
	'product_variants',
	'users',
	'sessions',
]

/** A plan line that reads every row of the Store: an index search on storeId alone. */
const STORE_WIDE = /USING (?:COVERING )?INDEX \S+ \(storeId=\?\)$/

/**
 * The plan lines of statements that read more of a growing table than the rows they are about:
 * a scan of the whole table, or of every row of the Store through an index on storeId alone.
 * (A Store's settings, its few shipping zones say, may be read whole.)
 */
const walks = (plans: Plan[]) =>
	plans.flatMap(({ sql, plan }) =>
		plan
			.filter((line) => {
				const table = /^(?:SCAN|SEARCH) (?:main\.)?(\w+)/.exec(line)?.[1] ?? ''
				return GROWING.includes(table) && (/^SCAN\b/.test(line) || STORE_WIDE.test(line))
			})
			.map((line) => `${line} :: ${sql}`),
	)

/**
 * Statements that read every Order of the Store to sort them or to add them up. (Counting them,
 * for a list's number of pages, reads an index of the Store's Orders, and may.)
 */
const sortsOrSumsTheStore = (plans: Plan[]) =>
	plans
		.filter(
			({ sql, plan }) =>
				plan.some((line) => /^SEARCH (?:main\.)?orders /.test(line) && STORE_WIDE.test(line)) &&
				(plan.some((line) => line.includes('TEMP B-TREE')) || /\bSUM\(/.test(sql)),
		)
		.map(({ sql, plan }) => `${plan.join(' | ')} :: ${sql}`)

// SQLite plans without statistics unless ANALYZE has run, so it is the engine whose choice an
// index or the shape of a WHERE decides; PostgreSQL's planner weighs its own statistics.
describe('what a sale, its payment events and its Order pages read, on SQLite', () => {
	let t: TestDatabase
	let admin: AdminViewer
	const secret = newWebhookSecret()
	const bankSecret = newWebhookSecret()

	beforeAll(async () => {
		t = await openTestDatabase('sqlite')
		await offline(t.db, t.storeId)
		admin = (await signUpAdmin(t)).viewer
		const connections = adminConnectionsRepository(t.db, admin)
		await connections.create({ provider: 'stripe', handle: STRIPE, displayName: 'Card', secretKey: 'sk_test_x', webhookSecret: secret })
		await connections.create({ provider: 'generic', handle: BANK, displayName: 'Bank', webhookSecret: bankSecret })
		// Orders of the Store before the ones the tests follow, as a store that has been selling has.
		for (let i = 0; i < 3; i++) await started()
	})
	afterAll(() => t.db.$disconnect())

	/** A guest with a 50.00 USD product in their cart. */
	async function shopper(viewer: Viewer = newGuest(t.storeId)) {
		const product = await createProduct(t.db, t.storeId, { priceMinor: 5000 })
		await cartRepository(t.db, viewer).add({ productId: product.id, quantity: 1 })
		return viewer
	}
	const checkout = async (viewer: Viewer, handle: string) =>
		(await placeOrder({ db: t.db, viewer, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })).order
	/** A Stripe Order whose Checkout Session the store recorded. */
	async function started() {
		const { order, sessionId, paymentIntentId } = await startedCardOrder(t.db, t.storeId, STRIPE)
		return { orderId: order.id, sessionId, paymentIntentId }
	}
	async function deliver(payload: string) {
		const delivered = await deliverAndApply(unverifiedScope(t.db, t.storeId), {
			handle: STRIPE,
			request: stripeRequest(`http://store.test/api/events/${STRIPE}`, payload, stripeSignature(payload, secret)),
		})
		return delivered.outcome
	}

	it("places an Order without reading the Store's other Orders, carts or stock", async () => {
		const guest = await shopper()
		let number = 0
		const plans = await plansOf(t.db, async () => {
			number = (await checkout(guest, STRIPE)).number
		})
		expect(number).toBeGreaterThan(3)
		expect(plans.length).toBeGreaterThan(0)
		expect(walks(plans)).toEqual([])
	})

	it("reads a paying Session event's Order once and writes it once: the link and the payment in one statement", async () => {
		const o = await started()
		let outcome = ''
		const plans = await plansOf(t.db, async () => {
			outcome = await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }))
		})
		expect(outcome).toBe('applied')
		const onOrders = plans
			.filter(({ plan }) => plan.some((line) => /^(?:SCAN|SEARCH) (?:main\.)?orders\b/.test(line)))
			.map(({ sql }) => sql.trim().split(/\s+/)[0])
		expect(onOrders.sort()).toEqual(['SELECT', 'UPDATE'])
		expect(await t.db.order.findUniqueOrThrow({ where: { id: o.orderId }, select: { status: true, paymentIntentRef: true } })).toEqual({
			status: 'paid',
			paymentIntentRef: o.paymentIntentId,
		})
	})

	it("finds a Session event's Order by an index search on its reference, not by reading every Order of the Store", async () => {
		const o = await started()
		const payload = stripeEvents.sessionCompleted({ ...o, amount: 5000 })
		let outcome = ''
		const plans = await plansOf(t.db, async () => {
			outcome = await deliver(payload)
		})
		expect(outcome).toBe('applied')
		expect(plans.some(({ sql }) => /FROM `main`.`orders`/.test(sql))).toBe(true)
		expect(walks(plans)).toEqual([])
	})

	it("finds a refund's Order by its PaymentIntent, and counts a repeated delivery, the same way", async () => {
		const o = await started()
		expect(await deliver(stripeEvents.sessionCompleted({ ...o, amount: 5000 }))).toBe('applied')
		const refund = stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 1000, orderId: o.orderId })
		const outcomes: string[] = []
		const plans = await plansOf(t.db, async () => {
			outcomes.push(await deliver(refund), await deliver(refund))
		})
		expect(outcomes).toEqual(['applied', 'duplicate'])
		expect(walks(plans)).toEqual([])
	})

	it("finds a generic event's Order by the number it quotes the same way", async () => {
		const order = await checkout(await shopper(), BANK)
		const body = {
			type: 'payment.succeeded',
			occurred_at: Math.floor(Date.now() / 1000),
			data: { reference: String(order.number), amount: 5000, currency: 'USD' },
		}
		let outcome = ''
		const plans = await plansOf(t.db, async () => {
			outcome = (
				await deliverAndApply(unverifiedScope(t.db, t.storeId), {
					handle: BANK,
					request: genericRequest(`http://store.test/api/events/${BANK}`, body, bankSecret),
				})
			).outcome
		})
		expect(outcome).toBe('applied')
		expect(walks(plans)).toEqual([])
	})

	it("shows a shopper their Order and its lines, and a Customer their Orders, without reading other Orders' lines", async () => {
		const order = await checkout(await shopper(), STRIPE)
		const me = await signUpCustomer(t.auth)
		const customer = asCustomer(t.storeId, me.userId, me.email)
		await checkout(await shopper(customer), STRIPE)
		let shown: Array<{ lines: unknown[] } | { number: number }> = []
		const plans = await plansOf(t.db, async () => {
			shown = [(await ordersRepository(t.db, newGuest(t.storeId)).byToken(order.token))!, ...(await customerOrdersRepository(t.db, customer).list())]
		})
		expect(shown).toHaveLength(2)
		expect(walks(plans)).toEqual([])
	})

	it("reads a page of Store Admin's Orders, and its overview, in index order instead of sorting every Order of the Store", async () => {
		const plans = await plansOf(t.db, async () => {
			const orders = adminOrdersRepository(t.db, admin)
			expect((await orders.page({})).orders.length).toBeGreaterThan(3)
			await orders.page({ status: 'awaiting_payment' })
			await dashboardRepository(t.db, admin).overview()
		})
		expect(plans.length).toBeGreaterThan(5)
		expect(sortsOrSumsTheStore(plans)).toEqual([])
	})
})
