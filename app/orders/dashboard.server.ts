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

/** The UTC day a time falls on, as `sales_days` keys it. */
const dayKey = (time: Date) => time.toISOString().slice(0, 10)
const midnightOf = (time: Date) => new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()))

/**
 * [R114] What Store Admin's overview shows of the shop: sales (what was captured from Orders
 * paid in each window, less what has been refunded of them) and the Orders waiting for the
 * shop, each from a kept row, an aggregate or a short list: never every Order loaded. The admin's Store only.
 *
 * [R139] A window's whole UTC days come from `sales_days` (a row a day, kept by triggers with
 * every Order write); only its two part-days are summed from Orders, through the index on
 * `paidAt` that holds the amounts: the one the window starts in (from its start to the next
 * midnight) and today (from midnight to now), which all windows share. A month of sales reads
 * 30 kept rows and two days of Orders, however many Orders the month had.
 */
export function dashboardRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const waiting = { id: true, number: true, email: true, currency: true, totalMinor: true, createdAt: true, paidAt: true } as const
	type Sum = { orders: number; netMinor: number }

	/** Orders paid in a range of `paidAt`, summed from the index that holds the amounts. */
	const paidIn = async (paidAt: { gte: Date; lt?: Date; lte?: Date }): Promise<Sum> => {
		const sum = await db.order.aggregate({ where: { storeId, paidAt }, _sum: { capturedMinor: true, refundedMinor: true }, _count: { _all: true } })
		return { orders: sum._count._all, netMinor: (sum._sum.capturedMinor ?? 0) - (sum._sum.refundedMinor ?? 0) }
	}

	return {
		async overview(now = new Date()) {
			const today = midnightOf(now)
			const windows = salesWindows(now)
			// The whole days of the longest window before today, a kept row each.
			const firstWholeDay = (since: Date) => (midnightOf(since).getTime() === since.getTime() ? since : new Date(midnightOf(since).getTime() + DAY_MS))
			const earliest = windows.reduce((first, window) => (window.since < first ? window.since : first), today)
			const [days, sinceMidnight, ...heads] = await Promise.all([
				db.salesDay.findMany({
					where: { storeId, day: { gte: dayKey(firstWholeDay(earliest)), lt: dayKey(today) } },
					select: { day: true, orders: true, capturedMinor: true, refundedMinor: true },
				}),
				paidIn({ gte: today, lte: now }),
				// The part-day a window starts in, when it does not start at a midnight ("today" does).
				...windows.map((window) => {
					const to = firstWholeDay(window.since)
					return to > window.since ? paidIn({ gte: window.since, lt: to }) : { orders: 0, netMinor: 0 }
				}),
			])
			const sales = windows.map((window, i) => {
				const from = dayKey(firstWholeDay(window.since))
				const whole = days.filter((day) => day.day >= from)
				const head = heads[i]!
				return {
					key: window.key,
					label: window.label,
					orders: head.orders + sinceMidnight.orders + whole.reduce((sum, day) => sum + day.orders, 0),
					netMinor: head.netMinor + sinceMidnight.netMinor + whole.reduce((sum, day) => sum + Number(day.capturedMinor - day.refundedMinor), 0),
				}
			})
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
