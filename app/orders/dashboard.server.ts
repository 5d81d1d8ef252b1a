import type { Db } from '../data/db.server'
import { storeCounts } from '../data/store-counts.server'
import type { AdminViewer } from '../data/viewer'

const DAY_MS = 24 * 60 * 60 * 1000
/** How many of the oldest waiting Orders the overview lists under each count. */
const OLDEST_SHOWN = 5

export type SalesWindow = { key: 'today' | 'week' | 'month'; label: string; since: Date }

/**
 * [R114] The windows sales are summed over: since midnight UTC today (the Store has no time zone
 * setting; UTC is what the activity log shows), and the last 7 and 30 days up to now.
 */
export function salesWindows(now: Date): SalesWindow[] {
	const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
	return [
		{ key: 'today', label: 'Today (UTC)', since: midnight },
		{ key: 'week', label: 'Last 7 days', since: new Date(now.getTime() - 7 * DAY_MS) },
		{ key: 'month', label: 'Last 30 days', since: new Date(now.getTime() - 30 * DAY_MS) },
	]
}

/**
 * [R114] What Store Admin's overview shows of the shop: sales (what was captured from Orders
 * paid in each window, less what has been refunded of them) and the Orders waiting for the
 * shop, each from an aggregate or a short list: never every Order loaded. The admin's Store only.
 */
export function dashboardRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const waiting = { id: true, number: true, email: true, currency: true, totalMinor: true, createdAt: true, paidAt: true } as const

	return {
		async overview(now = new Date()) {
			const sales = await Promise.all(
				salesWindows(now).map(async (window) => {
					const sum = await db.order.aggregate({
						where: { storeId, paidAt: { gte: window.since, lte: now } },
						_sum: { capturedMinor: true, refundedMinor: true },
						_count: { _all: true },
					})
					return {
						key: window.key,
						label: window.label,
						orders: sum._count._all,
						netMinor: (sum._sum.capturedMinor ?? 0) - (sum._sum.refundedMinor ?? 0),
					}
				}),
			)
			// The counts are kept with every Order write (store_counts); the oldest are read in index
			// order. Numbers are handed out in the order Orders are placed, so the smallest is the oldest.
			const [counts, awaitingPaymentOldest, awaitingShippingOldest] = await Promise.all([
				storeCounts(db, storeId, ['orders:awaiting_payment', 'orders:paid']),
				db.order.findMany({ where: { storeId, status: 'awaiting_payment' }, orderBy: { number: 'asc' }, take: OLDEST_SHOWN, select: waiting }),
				db.order.findMany({ where: { storeId, status: 'paid' }, orderBy: [{ paidAt: 'asc' }, { number: 'asc' }], take: OLDEST_SHOWN, select: waiting }),
			])
			return {
				sales,
				awaitingPayment: { count: counts['orders:awaiting_payment'], oldest: awaitingPaymentOldest },
				awaitingShipping: { count: counts['orders:paid'], oldest: awaitingShippingOldest },
			}
		},
	}
}
