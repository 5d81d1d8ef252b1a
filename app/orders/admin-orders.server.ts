import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import { announce } from '../data/signals.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { MAX_STOCK } from '../cart/limits'
import { CHECKOUT_CONTENTION, limitLockWaits, retryOnContention } from './contention.server'
import { orderDetailFields, refundMail, transitionOrder } from './orders.server'
import { canTransition, type OrderStatus } from './status'
import { viewerScope } from '../data/scope'

export const ADMIN_ORDERS_PAGE_SIZE = 20
/** The most recent provider events shown on an Order's admin page. */
export const ORDER_EVENTS_SHOWN = 20

export type AdminOrderAction = 'mark_paid' | 'fulfil' | 'cancel' | 'refund'

/**
 * Orders as Store Admin runs them: list, detail, and the transitions of
 * app/orders/status.ts. Cancelling returns the stock; a refund is recorded (the Order is
 * `refunded` once the whole total is refunded). Each write and its audit row share a transaction.
 */
export function adminOrdersRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId

	return {
		async page({ page = 1, query = '', status }: { page?: number; query?: string; status?: OrderStatus }) {
			const number = /^#?\d{1,9}$/.test(query) ? Number(query.replace('#', '')) : null
			const where = {
				storeId,
				...(status ? { status } : {}),
				...(query ? { OR: [...(number !== null ? [{ number }] : []), { email: { contains: query.toLowerCase() } }] } : {}),
			}
			const [orders, total] = await Promise.all([
				db.order.findMany({
					where,
					orderBy: { createdAt: 'desc' },
					skip: (page - 1) * ADMIN_ORDERS_PAGE_SIZE,
					take: ADMIN_ORDERS_PAGE_SIZE,
					select: { id: true, number: true, email: true, status: true, currency: true, totalMinor: true, createdAt: true },
				}),
				db.order.count({ where }),
			])
			return { orders, total, page, pages: Math.max(1, Math.ceil(total / ADMIN_ORDERS_PAGE_SIZE)) }
		},

		async byNumber(number: number) {
			const order = await db.order.findFirst({
				where: { storeId, number },
				// What the shopper sees, plus what the operator needs to reconcile the payment.
				select: {
					...orderDetailFields,
					capturedMinor: true,
					providerRef: true,
					paymentIntentRef: true,
					disputed: true,
					paidAt: true,
					userId: true,
					connection: { select: { provider: true, displayName: true, handle: true } },
				},
			})
			if (!order) throw notFound('That order')
			// What provider events said about it, held or conflicting ones included, so the operator can act.
			const events = await db.providerEvent.findMany({
				where: { storeId, OR: [{ orderId: order.id }, { otherOrderId: order.id }] },
				orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
				take: ORDER_EVENTS_SHOWN,
				select: { id: true, providerEventId: true, type: true, outcome: true, summary: true, receivedAt: true, connection: { select: { handle: true } } },
			})
			return { ...order, events }
		},

		async act(number: number, action: AdminOrderAction, { refundMinor }: { refundMinor?: number } = {}) {
			const order = await db.order.findFirst({
				where: { storeId, number },
				select: {
					id: true,
					email: true,
					status: true,
					capturedMinor: true,
					refundedMinor: true,
					connection: { select: { provider: true } },
					lines: { select: { productId: true, quantity: true } },
				},
			})
			if (!order) throw notFound('That order')
			const refuse = (message: string): never => {
				throw new DomainError(409, message)
			}
			// Stock and the Order row are contended like at checkout: the same bounded retries, then a 503.
			await retryOnContention(
				() =>
					db.$transaction(async (tx) => {
						await limitLockWaits(db, tx)
						const moved = (to: OrderStatus) => transitionOrder(tx, viewerScope(db, admin), { orderId: order.id, to })
						if (action === 'mark_paid') {
							if (order.connection.provider === 'stripe') refuse('Card payments are confirmed by the provider’s events, not by hand.')
							if (!(await moved('paid'))) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be marked paid.`)
						} else if (action === 'fulfil') {
							if (!(await moved('fulfilled'))) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be shipped.`)
						} else if (action === 'cancel') {
							if (!(await moved('cancelled'))) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be cancelled.`)
							// In product-id order, as checkout takes stock, so the two never wait on each other in a circle.
							const lines = order.lines.filter((line) => line.productId !== null).sort((a, b) => (a.productId! < b.productId! ? -1 : 1))
							for (const line of lines) await returnStock(tx, { storeId, productId: line.productId!, quantity: line.quantity })
						} else {
							// Refunds never add up to more than was captured [R66].
							const left = order.capturedMinor - order.refundedMinor
							if (!canTransition(order.status, 'refunded')) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be refunded.`)
							if (left <= 0) refuse('Nothing captured for this order is left to refund.')
							const amount = refundMinor ?? left
							if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
								throw new DomainError(400, `Refund between 0.01 and the ${left} minor units captured and not yet refunded.`, 'amount')
							}
							const recorded = await tx.order.updateMany({
								where: { id: order.id, storeId, status: order.status, refundedMinor: order.refundedMinor },
								data: { refundedMinor: { increment: amount } },
							})
							if (recorded.count !== 1) refuse('The order changed meanwhile; reload and try again.')
							await refundMail(tx, { storeId, id: order.id, email: order.email }, order.refundedMinor + amount)
							if (amount === left && !(await moved('refunded'))) refuse('The order could not be marked refunded.')
						}
						await auditEntry(tx, admin, {
							action: `order.${action}`,
							targetType: 'order',
							targetId: order.id,
							detail: { number, from: order.status, ...(action === 'refund' ? { amountMinor: refundMinor ?? order.capturedMinor - order.refundedMinor } : {}) },
						})
					}, CHECKOUT_CONTENTION.transaction),
				ADMIN_CONTENTION,
			)
			// A cancel returned stock: shoppers see it at once.
			if (action === 'cancel') announce('catalog-changed')
		},
	}
}

/** An admin's write gives up like checkout's, with words for the admin. */
const ADMIN_CONTENTION = { ...CHECKOUT_CONTENTION, busyMessage: 'The store is busy right now and nothing was changed. Please try again in a moment.' }

/** Puts a cancelled line's units back, never past the most a Product may hold. */
async function returnStock(tx: Pick<Db, 'product'>, { storeId, productId, quantity }: { storeId: string; productId: string; quantity: number }) {
	const added = await tx.product.updateMany({
		where: { id: productId, storeId, stock: { lte: MAX_STOCK - quantity } },
		data: { stock: { increment: quantity } },
	})
	if (added.count === 0) await tx.product.updateMany({ where: { id: productId, storeId }, data: { stock: MAX_STOCK } })
}
