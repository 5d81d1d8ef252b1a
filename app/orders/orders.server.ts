import type { Db } from '../data/db.server'
import type { UserViewer, Viewer } from '../data/viewer'
import { NEWEST_ORDERS_FIRST, ORDER_LINE_ORDER } from './listing-order'
import { orderMail } from './mail.server'
import { DomainError, StoreBusyError } from '../errors.server'
import { canTransition, type OrderStatus } from '../rules/order-status'
import { hashOrderToken, ORDER_TOKEN } from './token.server'
import type { StoreScope } from '../data/scope'

/** What a shopper sees of an Order: no internal ids, no provider secrets. */
export const orderDetailFields = {
	id: true,
	number: true,
	status: true,
	email: true,
	name: true,
	addressLine1: true,
	addressLine2: true,
	city: true,
	postalCode: true,
	country: true,
	currency: true,
	subtotalMinor: true,
	shippingMinor: true,
	shippingName: true,
	taxMinor: true,
	taxRateBasisPoints: true,
	taxIncluded: true,
	discountCode: true,
	discountKind: true,
	discountMinor: true,
	totalMinor: true,
	refundedMinor: true,
	paymentNote: true,
	createdAt: true,
	shippedAt: true,
	carrier: true,
	trackingNumber: true,
	connection: { select: { provider: true, displayName: true, id: true, paymentInstructions: true } },
	lines: { select: { title: true, variantTitle: true, unitPriceMinor: true, quantity: true, lineTotalMinor: true }, orderBy: ORDER_LINE_ORDER },
} as const

/**
 * Orders as shoppers reach them: a Customer sees only their own, by number;
 * a Guest only through the confirmation token, never by number or email.
 */
export function ordersRepository(db: Db, viewer: Viewer) {
	return {
		byToken(token: string) {
			if (!ORDER_TOKEN.test(token)) return Promise.resolve(null)
			return db.order.findFirst({ where: { storeId: viewer.storeId, tokenHash: hashOrderToken(token) }, select: orderDetailFields })
		},
	}
}

export function customerOrdersRepository(db: Db, viewer: UserViewer) {
	const mine = { storeId: viewer.storeId, userId: viewer.userId }
	return {
		list() {
			return db.order.findMany({
				where: mine,
				orderBy: NEWEST_ORDERS_FIRST,
				take: 100,
				select: { number: true, status: true, currency: true, totalMinor: true, createdAt: true },
			})
		},
		byNumber(number: number) {
			return db.order.findFirst({ where: { ...mine, number }, select: orderDetailFields })
		},
		/** The shipping address of the Customer's latest Order, offered at their next checkout. */
		lastShippingAddress() {
			return db.order.findFirst({
				where: mine,
				orderBy: NEWEST_ORDERS_FIRST,
				select: { name: true, addressLine1: true, addressLine2: true, city: true, postalCode: true, country: true },
			})
		},
	}
}

type Tx = Pick<Db, 'order' | 'outboxMail'>

/**
 * The one way an Order changes status by hand (admin actions): a conditional update from a
 * state the table allows, so two racing changes cannot both apply and an Order never moves
 * backwards. An admin marking an offline payment paid records its total as captured [R66].
 * Returns false when the Order is not in a state that allows it.
 */
export async function transitionOrder(tx: Tx, { storeId }: StoreScope, { orderId, to, note }: { orderId: string; to: OrderStatus; note?: string }) {
	const current = await tx.order.findFirst({ where: { id: orderId, storeId }, select: { status: true, totalMinor: true, email: true } })
	if (!current) throw new DomainError(404, 'That order was not found.')
	if (!canTransition(current.status, to)) return false
	const changed = await tx.order.updateMany({
		where: { id: orderId, storeId, status: current.status },
		data: {
			status: to,
			...(to === 'paid' ? { paidAt: new Date(), capturedMinor: current.totalMinor } : {}),
			...(note !== undefined ? { paymentNote: note } : {}),
		},
	})
	// A refund's mail names its amount: the refund paths write it (refundMail), not the status change.
	if (changed.count === 1 && to !== 'refunded' && to !== 'awaiting_payment') await orderMail(tx, { storeId, id: orderId, email: current.email }, to)
	return changed.count === 1
}

/** The mail of a refund just recorded: one per refunded total, so a replayed event sends none. */
export function refundMail(tx: Tx, order: { storeId: string; id: string; email: string }, refundedMinor: number) {
	return orderMail(tx, order, { refundedMinor })
}

/**
 * What a verified provider event says happened to an Order's payment (app/payments/events
 * decides WHICH Order from the references the store recorded). Amounts are minor units;
 * `refundedMinor` is the provider's cumulative total refunded so far.
 */
export type PaymentEffect =
	| { kind: 'paid'; amountMinor: number | null; currency: string | null }
	| { kind: 'failed'; reason: string }
	| { kind: 'refund'; refundedMinor: number | null; currency: string | null }
	| { kind: 'dispute' }

/** What deciding a payment event needs of its Order. */
export const paymentFields = {
	number: true,
	email: true,
	status: true,
	currency: true,
	totalMinor: true,
	capturedMinor: true,
	refundedMinor: true,
	paidAt: true,
	disputed: true,
} as const
const readPaymentState = (tx: Tx, storeId: string, orderId: string) => tx.order.findFirst({ where: { id: orderId, storeId }, select: paymentFields })
/** An Order's payment state, as `paymentFields` selects it. */
export type PaymentState = NonNullable<Awaited<ReturnType<typeof readPaymentState>>>

/**
 * `review`: the money does not reconcile with what is owed; `held`: not yet (a refund of an
 * Order that is still unpaid), to be applied again when the Order is paid.
 */
export type PaymentResult = { outcome: 'applied' | 'stale' | 'review' | 'held'; summary: string }

/** A conditional write found the Order changed since it was read: decide again on what it is now. */
const MISSED = Symbol('changed meanwhile')

/**
 * How many times one event decides on an Order that others keep changing under it. Each miss
 * is another transaction's committed change to that Order, so this bounds a burst of events
 * for one Order, not a wait; past it the event's transaction fails, nothing of it is kept,
 * and the provider delivers it again.
 */
export const MAX_PAYMENT_DECISIONS = 5

/**
 * The seam for provider events [R64-R66]: money moves only when it reconciles. An Order becomes
 * paid only for at least its total in its currency, and records what was captured; a refund
 * never makes an unpaid Order paid and cumulative refunds never exceed what was captured.
 * Every change is a conditional update, so a repeat or a late event changes nothing; a race is
 * decided again on the Order as the winner left it [R68]: an event is `stale` only when what it
 * says is already recorded or superseded, never because another event committed first.
 */
export async function applyPaymentEvent(
	tx: Tx,
	{ storeId }: StoreScope,
	{
		orderId,
		effect,
		known,
		linking,
	}: {
		orderId: string
		effect: PaymentEffect
		/** The Order as this transaction last read it; read here when not given. Every write below is conditional on what it decided on. */
		known?: PaymentState | null
		/**
		 * A payment reference (PaymentIntent) to link in the same write that marks the Order paid,
		 * only while the Order has none: the caller found it unlinked. Used by a `paid` effect only;
		 * when that write does not happen (short, stale, changed meanwhile) nothing is linked, and
		 * the caller links and applies apart, reading the Order again.
		 */
		linking?: string
	},
): Promise<PaymentResult> {
	let order = known ?? (await readPaymentState(tx, storeId, orderId))
	for (let decision = 1; ; decision++) {
		if (!order) throw new DomainError(404, 'That order was not found.')
		const decided = await decidePayment(tx, { storeId, orderId, effect, order, linking })
		if (decided !== MISSED) return decided
		if (linking !== undefined) return { outcome: 'stale', summary: `Order #${order.number}: changed meanwhile; nothing changed.` }
		// On PostgreSQL the write waited for the transaction that changed the row, which has
		// committed: this read sees what it left.
		if (decision >= MAX_PAYMENT_DECISIONS) throw new StoreBusyError('The order kept changing while a payment event was applied; nothing was changed.')
		order = await readPaymentState(tx, storeId, orderId)
	}
}

/** One decision on the Order as read: a result, or MISSED when its conditional write found the row changed. */
async function decidePayment(
	tx: Tx,
	{ storeId, orderId, effect, order, linking }: { storeId: string; orderId: string; effect: PaymentEffect; order: PaymentState; linking?: string },
): Promise<PaymentResult | typeof MISSED> {
	const say = (outcome: PaymentResult['outcome'], what: string): PaymentResult => ({ outcome, summary: `Order #${order.number}: ${what}` })
	const minor = (amount: number | null) => (amount === null ? 'no amount' : `${amount} ${order.currency} minor units`)
	const state = order.status.replace('_', ' ')
	const where = { id: orderId, storeId, status: order.status }

	if (effect.kind === 'failed') {
		if (order.status !== 'awaiting_payment') return say('stale', `already ${state}; nothing changed.`)
		const noted = await tx.order.updateMany({ where, data: { paymentNote: `Payment failed: ${effect.reason.slice(0, 200)}` } })
		if (noted.count !== 1) return MISSED
		return say('applied', `payment failed (${effect.reason.slice(0, 80)}); it stays awaiting payment.`)
	}
	if (effect.kind === 'dispute') {
		if (order.disputed) return say('stale', 'already flagged as disputed; nothing changed.')
		const flagged = await tx.order.updateMany({ where: { id: orderId, storeId, disputed: false }, data: { disputed: true } })
		if (flagged.count !== 1) return MISSED
		return say('applied', 'flagged: the payment is disputed.')
	}
	const currency = effect.currency?.toUpperCase() ?? null
	if (currency !== order.currency) {
		return say(
			'review',
			`${effect.kind === 'paid' ? 'paid' : 'refunded'} in ${currency ?? 'no currency'}, but the order is in ${order.currency}; nothing changed.`,
		)
	}
	if (effect.kind === 'paid') {
		if (effect.amountMinor === null || effect.amountMinor < order.totalMinor) {
			return say('review', `amount short: ${minor(effect.amountMinor)} paid of ${minor(order.totalMinor)} owed; nothing changed.`)
		}
		if (!canTransition(order.status, 'paid')) return say('stale', `already ${state}; nothing changed.`)
		const changed = await tx.order.updateMany({
			where: linking === undefined ? where : { ...where, paymentIntentRef: null },
			data: {
				...(linking === undefined ? {} : { paymentIntentRef: linking }),
				status: 'paid',
				paidAt: new Date(),
				capturedMinor: effect.amountMinor,
				paymentNote: null,
			},
		})
		if (changed.count !== 1) return MISSED
		await orderMail(tx, { storeId, id: orderId, email: order.email }, 'paid')
		return say('applied', `marked paid (${minor(effect.amountMinor)} captured).`)
	}
	if (order.paidAt === null) {
		// A refund proves nothing about what this Order owes: it never pays it [R66]. An Order
		// still awaiting payment may yet be paid (events out of order): the refund waits for that.
		return order.status === 'awaiting_payment'
			? say('held', 'a refund of an order that is not paid; held until it is paid, nothing changed.')
			: say('review', `a refund of an order that was never paid (${state}); nothing changed.`)
	}
	const refunded = effect.refundedMinor
	if (refunded === null || refunded > order.capturedMinor) {
		return say('review', `refunds of ${minor(refunded)} would exceed the ${minor(order.capturedMinor)} captured; nothing changed.`)
	}
	// Cumulative totals: a smaller or equal one than recorded is already contained in it.
	if (refunded <= order.refundedMinor) return say('stale', 'this refund is already recorded; nothing changed.')
	const full = refunded >= order.capturedMinor
	const status = full && canTransition(order.status, 'refunded') ? 'refunded' : order.status
	const changed = await tx.order.updateMany({ where: { ...where, refundedMinor: order.refundedMinor }, data: { refundedMinor: refunded, status } })
	if (changed.count !== 1) return MISSED
	await refundMail(tx, { storeId, id: orderId, email: order.email }, refunded)
	return say('applied', `refunds of ${minor(refunded)} recorded${full ? '; fully refunded' : ''}.`)
}

/**
 * The provider object id of the payment the store started (Checkout Session), recorded once
 * payment has started. Events reconcile against it [R66]; a paid Order keeps the one it was
 * paid through.
 */
export function recordProviderRef({ db, storeId }: StoreScope, { orderId, providerRef }: { orderId: string; providerRef: string }, tx: Tx = db) {
	return tx.order.updateMany({ where: { id: orderId, storeId, status: 'awaiting_payment' }, data: { providerRef } })
}

/**
 * Links the provider's payment (a Stripe PaymentIntent) to an Order, once: only an event that
 * names the Order's recorded reference links it, and a link is never replaced. Answers the
 * Order's payment state as the link left it (null when nothing was linked): the statement that
 * wrote the row read it, so applying the same event needs no second read of it.
 */
export async function linkPaymentIntent(
	tx: Tx,
	{ storeId }: StoreScope,
	{ orderId, paymentIntentRef }: { orderId: string; paymentIntentRef: string },
): Promise<PaymentState | null> {
	const [linked] = await tx.order.updateManyAndReturn({
		where: { id: orderId, storeId, paymentIntentRef: null },
		data: { paymentIntentRef },
		select: paymentFields,
	})
	return linked ?? null
}
