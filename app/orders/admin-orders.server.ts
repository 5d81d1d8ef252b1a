import { releaseDiscount } from '../discounts/redeem.server'
import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import { keysetPage, type Cursor } from '../data/keyset'
import { announce } from '../data/signals.server'
import { storeCountTotal } from '../data/store-counts.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { MAX_STOCK } from '../rules/limits'
import { CHECKOUT_CONTENTION, limitLockWaits, retryOnContention } from './contention.server'
import { ORDER_LINE_ORDER } from './listing-order'
import { countMatchingOrders, matchingOrders } from './order-search.server'
import { ADMIN_SEARCH_CAP, searchTerms } from '../rules/search-terms'
import { orderDetailFields, refundMail, transitionOrder } from './orders.server'
import { NO_PAYMENT_DUE, ORDER_STATUSES, canTransition, type OrderStatus } from '../rules/order-status'
import { viewerScope } from '../data/scope'
import { formatMoney } from '../rules/money'

export const ADMIN_ORDERS_PAGE_SIZE = 20
/** An Order's key in the list's `?before=` and `?after=`: its number. */
export const ORDER_CURSOR = /^\d{1,9}$/
/** The most recent provider events shown on an Order's admin page. */
export const ORDER_EVENTS_SHOWN = 20

export type AdminOrderAction = 'mark_paid' | 'fulfil' | 'cancel' | 'refund'

/** What a parcel is traced by, given when the Order is marked shipped (both optional). */
export type Shipment = { carrier?: string; trackingNumber?: string }

/**
 * Sends a refund through the provider the Order was paid with, before it is recorded [R117]:
 * the provider's refund id, or null where money goes back by hand (offline, bank transfer).
 * Given by the composition root (app/repositories.server.ts): Orders do not call providers.
 */
export type RefundSender = (
	connection: { id: string; provider: string },
	request: { order: { id: string; storeId: string; number: number }; paymentRef: string | null; amountMinor: number; refundedBefore: number },
) => Promise<{ providerRefundRef: string } | null>

/** Where no sender is given (tests of other actions): only refunds made by hand can be recorded. */
const byHandOnly: RefundSender = async (connection) => {
	if (connection.provider === 'stripe') throw new Error('A card refund needs a RefundSender')
	return null
}

/** One line of an Order's timeline, oldest first. */
export type TimelineEntry = { at: Date; what: string; by: string | null; note?: string }

const ACTION_WORDS: Record<string, string> = {
	'order.mark_paid': 'Marked paid',
	'order.fulfil': 'Marked shipped',
	'order.cancel': 'Cancelled; stock returned',
	'order.refund': 'Refund recorded',
	'order.refund.provider': 'Refunded through the provider',
	'order.note': 'Note',
}
const MAIL_WORDS: Record<string, string> = {
	'order-placed': 'order confirmation',
	'order-paid': 'payment received',
	'order-fulfilled': 'shipped notice',
	'order-cancelled': 'cancellation notice',
	'order-refunded': 'refund notice',
}

function detailOf(raw: string | null): Record<string, unknown> {
	try {
		const value: unknown = raw ? JSON.parse(raw) : null
		return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
	} catch {
		return {}
	}
}

/**
 * Orders as Store Admin runs them: list, detail, and the transitions of
 * app/rules/order-status.ts. Cancelling returns the stock; a refund is recorded (the Order is
 * `refunded` once the whole total is refunded). Each write and its audit row share a transaction.
 */
export function adminOrdersRepository(db: Db, admin: AdminViewer, sendRefund: RefundSender = byHandOnly) {
	const storeId = admin.storeId
	const countOf = (status?: OrderStatus) =>
		storeCountTotal(
			db,
			storeId,
			(status ? [status] : ORDER_STATUSES).map((s) => `orders:${s}`),
		)

	const listFields = { id: true, number: true, email: true, status: true, currency: true, totalMinor: true, createdAt: true } as const

	/**
	 * [R144] A search: the newest matches up to the cap (order-search.server.ts), paged by number
	 * within them as the whole list is, and only the page's Orders read.
	 */
	const searched = async ({ cursor, terms, number, status }: { cursor: Cursor; terms: string[]; number: number | null; status?: OrderStatus }) => {
		// The newest page of words, the one nearly every search opens, reads its own rows and counts
		// the rest from the index; a page further down, or a number, reads the keys of every match.
		const newestOnly = cursor === null && number === null
		const [matches, counted] = await Promise.all([
			matchingOrders(db, storeId, { terms, number, status, take: newestOnly ? ADMIN_ORDERS_PAGE_SIZE + 1 : ADMIN_SEARCH_CAP + 1 }),
			newestOnly ? countMatchingOrders(db, storeId, { terms, status }) : null,
		])
		const found = counted ?? matches.length
		const more = found > ADMIN_SEARCH_CAP
		const listed = matches.slice(0, ADMIN_SEARCH_CAP)
		const page = await keysetPage({
			cursor,
			size: ADMIN_ORDERS_PAGE_SIZE,
			read: async (from, direction, take) => {
				const key = from === null ? null : Number(from)
				const window =
					direction === 'older'
						? listed.filter((match) => key === null || match.number < key).slice(0, take)
						: listed
								.filter((match) => key !== null && match.number > key)
								.slice(-take)
								.reverse()
				if (window.length === 0) return []
				// By primary key alone: with the Store beside the ids SQLite walked the Store's Orders
				// instead. The ids came from this Store's search; the Store is checked on each row.
				const orders = await db.order.findMany({ where: { id: { in: window.map((match) => match.id) } }, select: { ...listFields, storeId: true } })
				return orders
					.filter((order) => order.storeId === storeId)
					.map(({ storeId: _store, ...order }) => order)
					.sort((a, b) => (direction === 'older' ? b.number - a.number : a.number - b.number))
			},
			keyOf: (order) => String(order.number),
		})
		return { orders: page.rows, newer: page.newer, older: page.older, total: Math.min(found, ADMIN_SEARCH_CAP), more }
	}

	return {
		/**
		 * A page of the list, newest first: the Orders numbered below `before` (or above `after`),
		 * read from the (storeId, number) or (storeId, status, number) index at that number, so a
		 * page deep in a store's history costs what the first does [R142].
		 */
		async page({ cursor = null, query = '', status }: { cursor?: Cursor; query?: string; status?: OrderStatus }) {
			const terms = searchTerms(query)
			// A question without a word lists every Order, as no question does.
			if (terms.length > 0) return searched({ cursor, terms, number: /^#?\d{1,9}$/.test(query.trim()) ? Number(query.trim().replace('#', '')) : null, status })
			const where = { storeId, ...(status ? { status } : {}) }
			const [found, total] = await Promise.all([
				keysetPage({
					cursor,
					size: ADMIN_ORDERS_PAGE_SIZE,
					read: (from, direction, take) =>
						db.order.findMany({
							where: from === null ? where : { ...where, number: direction === 'older' ? { lt: Number(from) } : { gt: Number(from) } },
							orderBy: { number: direction === 'older' ? 'desc' : 'asc' },
							take,
							select: listFields,
						}),
					keyOf: (order) => String(order.number),
				}),
				// The whole list or one status is read from the kept counts.
				countOf(status),
			])
			return { orders: found.rows, newer: found.newer, older: found.older, total, more: false }
		},

		async byNumber(number: number) {
			const order = await db.order.findFirst({
				where: { storeId, number },
				// What the shopper sees, plus what the operator needs to reconcile the payment.
				select: {
					...orderDetailFields,
					// Store Admin also sees which SKU each line took from the shelf.
					lines: { select: { ...orderDetailFields.lines.select, sku: true }, orderBy: ORDER_LINE_ORDER },
					capturedMinor: true,
					providerRef: true,
					paymentIntentRef: true,
					disputed: true,
					paidAt: true,
					userId: true,
					store: { select: { locale: true } },
					connection: { select: { provider: true, displayName: true, handle: true } },
				},
			})
			if (!order) throw notFound('That order')
			// What provider events said about it, held or conflicting ones included, so the operator can act.
			// Those naming it, then those naming it as the other Order of a conflict: each read newest
			// first from its own index, then merged (one query with OR walked every event in time order).
			const eventsNaming = (naming: { orderId: string } | { otherOrderId: string }) =>
				db.providerEvent.findMany({
					where: { storeId, ...naming },
					orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
					take: ORDER_EVENTS_SHOWN,
					select: { id: true, providerEventId: true, type: true, outcome: true, summary: true, receivedAt: true, connection: { select: { handle: true } } },
				})
			const events = (await Promise.all([eventsNaming({ orderId: order.id }), eventsNaming({ otherOrderId: order.id })]))
				.flat()
				.sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
				.filter((event, i, sorted) => i === 0 || event.id !== sorted[i - 1]!.id)
				.slice(0, ORDER_EVENTS_SHOWN)
			const { store, ...shown } = order
			return { ...shown, events, timeline: await timelineOf({ ...order, locale: store.locale }) }
		},

		/** An internal note on the Order, kept in the activity log with who wrote it. */
		async note(number: number, body: string) {
			const order = await db.order.findFirst({ where: { storeId, number }, select: { id: true } })
			if (!order) throw notFound('That order')
			await auditEntry(db, admin, { action: 'order.note', targetType: 'order', targetId: order.id, detail: { number, body } })
		},

		/**
		 * `refundedBefore` is what the refund form saw as refunded already: a form sent twice (a
		 * double click, a replayed post, a stale tab) finds it changed and records nothing [R66].
		 */
		async act(
			number: number,
			action: AdminOrderAction,
			{ refundMinor, refundedBefore, shipment = {} }: { refundMinor?: number; refundedBefore?: number; shipment?: Shipment } = {},
		) {
			const order = await db.order.findFirst({
				where: { storeId, number },
				select: {
					id: true,
					email: true,
					status: true,
					capturedMinor: true,
					refundedMinor: true,
					currency: true,
					paymentIntentRef: true,
					store: { select: { locale: true } },
					connection: { select: { id: true, provider: true } },
					lines: { select: { variantId: true, quantity: true } },
				},
			})
			if (!order) throw notFound('That order')
			const refuse = (message: string): never => {
				throw new DomainError(409, message)
			}
			// A refund is checked against what the form saw, then sent to the provider (Stripe) before
			// it is recorded: a refund the provider refused is never recorded [R66, R117].
			let refund: { amount: number; providerRefundRef: string | null } | null = null
			if (action === 'refund') {
				const amount = refundAmount(order, refundMinor, refundedBefore)
				if (order.connection.provider === 'stripe' && !order.paymentIntentRef) {
					refuse('Stripe has not confirmed a card payment for this order yet, so there is nothing to refund.')
				}
				const sent = await sendRefund(order.connection, {
					order: { id: order.id, storeId, number },
					paymentRef: order.paymentIntentRef,
					amountMinor: amount,
					refundedBefore: order.refundedMinor,
				})
				const providerRefundRef = sent?.providerRefundRef ?? null
				refund = { amount, providerRefundRef }
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
							await tx.order.updateMany({
								where: { id: order.id, storeId },
								data: { shippedAt: new Date(), carrier: shipment.carrier || null, trackingNumber: shipment.trackingNumber || null },
							})
						} else if (action === 'cancel') {
							if (!(await moved('cancelled'))) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be cancelled.`)
							// An unpaid Order's discount use goes back to the code [R134]; a paid one keeps it.
							// (Read in this transaction: a payment that landed since the page was read counts.)
							const paid = await tx.order.findFirst({ where: { id: order.id, storeId }, select: { paidAt: true } })
							if (paid?.paidAt === null) await releaseDiscount(tx, order.id)
							// Back to the variant each line sold [R121] (a deleted variant takes nothing back), in
							// variant-id order, as checkout takes stock, so the two never wait on each other in a circle.
							const lines = order.lines.flatMap((line) => (line.variantId === null ? [] : [{ variantId: line.variantId, quantity: line.quantity }]))
							for (const line of lines.sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) await returnStock(tx, { storeId, ...line })
						} else if (refund) {
							// A refund of all that is left moves the status in the same write (refundAmount checked
							// that it may), so the Order's kept count, then its customer's and its day's sums are
							// locked in the order every write takes them: two writers never wait in a circle.
							const whole = refund.amount === order.capturedMinor - order.refundedMinor
							const recorded = await tx.order.updateMany({
								where: { id: order.id, storeId, status: order.status, refundedMinor: order.refundedMinor },
								data: { refundedMinor: { increment: refund.amount }, ...(whole ? { status: 'refunded' } : {}) },
							})
							if (recorded.count !== 1) {
								refuse(
									refund.providerRefundRef
										? 'Stripe has made this refund, but the order changed meanwhile (another refund, or Stripe’s own event, recorded it): reload the order.'
										: 'The order changed meanwhile; reload and try again.',
								)
							}
							await refundMail(tx, { storeId, id: order.id, email: order.email }, order.refundedMinor + refund.amount)
						}
						await auditEntry(tx, admin, {
							action: `order.${action}`,
							targetType: 'order',
							targetId: order.id,
							detail: {
								number,
								from: order.status,
								...(refund ? { amountMinor: refund.amount, ...(refund.providerRefundRef ? { providerRefundRef: refund.providerRefundRef } : {}) } : {}),
								...(action === 'fulfil' ? { carrier: shipment.carrier || null, trackingNumber: shipment.trackingNumber || null } : {}),
							},
						})
					}, CHECKOUT_CONTENTION.transaction),
				ADMIN_CONTENTION,
			)
			// A cancel returned stock: shoppers see it at once.
			if (action === 'cancel') announce('catalog-changed')
			return { refundedThroughProvider: Boolean(refund?.providerRefundRef) }
		},
	}

	/**
	 * Every change of the Order in the order it happened: placed, what Store Admin did (with who
	 * did it, and notes), what provider events applied, and the mails it sent or still owes.
	 */
	async function timelineOf(order: {
		id: string
		createdAt: Date
		email: string
		currency: string
		locale: string
		totalMinor: number
		paidAt: Date | null
	}): Promise<TimelineEntry[]> {
		const [entries, applied, mails] = await Promise.all([
			db.auditEntry.findMany({
				where: { storeId, targetType: 'order', targetId: order.id },
				// Two actions within one millisecond keep the order they were taken in (ids are cuids).
				orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
				take: 200,
				select: { action: true, actorEmail: true, detail: true, createdAt: true },
			}),
			db.providerEvent.findMany({
				where: { storeId, orderId: order.id, outcome: 'applied' },
				orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
				take: 50,
				select: { summary: true, receivedAt: true, connection: { select: { handle: true } } },
			}),
			db.outboxMail.findMany({
				where: { storeId, subjectId: order.id },
				orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
				take: 50,
				select: { kind: true, status: true, toAddress: true, createdAt: true, sentAt: true },
			}),
		])
		const timeline: TimelineEntry[] = [{ at: order.createdAt, what: 'Placed', by: order.email }]
		// Paid as it was placed: no provider, no admin marked it [R140].
		if (order.totalMinor === 0 && order.paidAt) timeline.push({ at: order.paidAt, what: `Paid. ${NO_PAYMENT_DUE}`, by: null })
		for (const entry of entries) {
			const detail = detailOf(entry.detail)
			let what = ACTION_WORDS[entry.action] ?? entry.action
			if (entry.action === 'order.refund' && typeof detail.providerRefundRef === 'string') what = ACTION_WORDS['order.refund.provider']!
			if (entry.action === 'order.refund' && typeof detail.amountMinor === 'number')
				what = `${what}: ${formatMoney(detail.amountMinor, order.currency, order.locale)}`
			if (entry.action === 'order.fulfil' && typeof detail.trackingNumber === 'string') {
				what = `${what}: ${typeof detail.carrier === 'string' ? `${detail.carrier} ` : ''}${detail.trackingNumber}`
			}
			timeline.push({ at: entry.createdAt, what, by: entry.actorEmail, ...(entry.action === 'order.note' ? { note: String(detail.body ?? '') } : {}) })
		}
		for (const event of applied) timeline.push({ at: event.receivedAt, what: `Provider event via ${event.connection.handle}: ${event.summary}`, by: null })
		for (const mail of mails) {
			const name = MAIL_WORDS[mail.kind] ?? mail.kind
			const what =
				mail.status === 'sent'
					? `Email sent: ${name} to ${mail.toAddress}`
					: mail.status === 'failed'
						? `Email failed: ${name} to ${mail.toAddress}`
						: `Email queued: ${name} to ${mail.toAddress}`
			timeline.push({ at: mail.sentAt ?? mail.createdAt, what, by: null })
		}
		return timeline.sort((a, b) => a.at.getTime() - b.at.getTime())
	}
}

/**
 * The amount a refund form asks for, checked against the Order as read: never more than what was
 * captured and not yet refunded, and never from a form that saw another refunded total [R66].
 */
function refundAmount(
	order: { status: string; capturedMinor: number; refundedMinor: number; currency: string; store: { locale: string } },
	refundMinor: number | undefined,
	refundedBefore: number | undefined,
) {
	const refuse = (message: string): never => {
		throw new DomainError(409, message)
	}
	const left = order.capturedMinor - order.refundedMinor
	if (!canTransition(order.status, 'refunded')) refuse(`An order that is ${order.status.replace('_', ' ')} cannot be refunded.`)
	if (left <= 0) refuse('Nothing captured for this order is left to refund.')
	if (refundedBefore !== undefined && refundedBefore !== order.refundedMinor) {
		refuse('This order was refunded since the form was shown, so nothing was recorded now: check the amount left and confirm again.')
	}
	const amount = refundMinor ?? left
	if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
		const money = (minor: number) => formatMoney(minor, order.currency, order.store.locale)
		throw new DomainError(
			400,
			amount > left
				? `That is more than the ${money(left)} left to refund (captured and not yet refunded).`
				: `Enter an amount to refund, up to ${money(left)}.`,
			'amount',
		)
	}
	return amount
}

/** An admin's write gives up like checkout's, with words for the admin. */
const ADMIN_CONTENTION = { ...CHECKOUT_CONTENTION, busyMessage: 'The store is busy right now and nothing was changed. Please try again in a moment.' }

/** Puts a cancelled line's units back on its variant, never past the most a variant may hold. */
async function returnStock(tx: Pick<Db, 'productVariant'>, { storeId, variantId, quantity }: { storeId: string; variantId: string; quantity: number }) {
	const added = await tx.productVariant.updateMany({
		where: { id: variantId, storeId, stock: { lte: MAX_STOCK - quantity } },
		data: { stock: { increment: quantity } },
	})
	if (added.count === 0) await tx.productVariant.updateMany({ where: { id: variantId, storeId }, data: { stock: MAX_STOCK } })
}
