import type { Db } from '../data/db.server'
import type { UserViewer, Viewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import { canTransition, type OrderStatus } from './status'
import { hashOrderToken, ORDER_TOKEN } from './token.server'

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
	totalMinor: true,
	refundedMinor: true,
	paymentNote: true,
	createdAt: true,
	connection: { select: { provider: true, displayName: true, id: true } },
	lines: { select: { title: true, unitPriceMinor: true, quantity: true, lineTotalMinor: true } },
} as const

/**
 * Orders as shoppers reach them (issue 6.5): a Customer sees only their own, by number;
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
				orderBy: { createdAt: 'desc' },
				take: 100,
				select: { number: true, status: true, currency: true, totalMinor: true, createdAt: true, _count: { select: { lines: true } } },
			})
		},
		byNumber(number: number) {
			return db.order.findFirst({ where: { ...mine, number }, select: orderDetailFields })
		},
	}
}

type Tx = Pick<Db, 'order'>

/**
 * The one way an Order changes status (admin actions, provider events): a conditional
 * update from a state the table allows, so two racing changes cannot both apply and an
 * Order never moves backwards. Returns false when the Order is not in a state that allows it.
 */
export async function transitionOrder(
	tx: Tx,
	{ storeId, orderId, to, note }: { storeId: string; orderId: string; to: OrderStatus; note?: string },
) {
	const current = await tx.order.findFirst({ where: { id: orderId, storeId }, select: { status: true } })
	if (!current) throw new DomainError(404, 'That order was not found.')
	if (!canTransition(current.status, to)) return false
	const changed = await tx.order.updateMany({
		where: { id: orderId, storeId, status: current.status },
		data: { status: to, ...(to === 'paid' ? { paidAt: new Date() } : {}), ...(note !== undefined ? { paymentNote: note } : {}) },
	})
	return changed.count === 1
}

/**
 * The seam for provider events (issue 9): a verified payment outcome for one of this
 * Store's Orders. Idempotent: applying it again, or after a later state, changes nothing.
 */
export async function applyPaymentEvent(
	db: Db,
	{ storeId, orderId, outcome, note }: { storeId: string; orderId: string; outcome: 'succeeded' | 'failed'; note?: string },
) {
	return db.$transaction(async (tx) => {
		if (outcome === 'succeeded') return transitionOrder(tx, { storeId, orderId, to: 'paid', note })
		const changed = await tx.order.updateMany({
			where: { id: orderId, storeId, status: 'awaiting_payment' },
			data: { paymentNote: note ?? 'The payment failed.' },
		})
		return changed.count === 1
	})
}

/** The Order's provider object id, recorded once payment has started. */
export function recordProviderRef(db: Db, { storeId, orderId, providerRef }: { storeId: string; orderId: string; providerRef: string }) {
	return db.order.updateMany({ where: { id: orderId, storeId }, data: { providerRef } })
}
