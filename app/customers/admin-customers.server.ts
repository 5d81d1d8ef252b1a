import { type Db, engineOf } from '../data/db.server'
import { storeCounts } from '../data/store-counts.server'
import type { AdminViewer } from '../data/viewer'
import { notFound } from '../errors.server'

export const CUSTOMERS_PAGE_SIZE = 20
/** The most recent Orders a customer's page lists. */
const ORDERS_SHOWN = 50

type Totals = { orders: number; spentMinor: number }

/**
 * [R115] Customers as Store Admin sees them: the accounts of its Store that are not admins,
 * read-only (no credential, session or factor is ever selected), with how many Orders each
 * placed and what they spent (captured less refunded), counted for a whole page in one grouped
 * query. Search is by name or email, ignoring case on both engines.
 */
export function adminCustomersRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const customer = { storeId, role: 'user' }
	const profile = { id: true, name: true, email: true, createdAt: true } as const

	/** SQLite's LIKE ignores ASCII case already; PostgreSQL's needs the insensitive mode. */
	const containing = (text: string) => (engineOf(db) === 'postgresql' ? { contains: text, mode: 'insensitive' } : { contains: text }) as { contains: string }

	const totalsOf = async (userIds: string[]): Promise<Map<string, Totals>> => {
		if (userIds.length === 0) return new Map()
		const groups = await db.order.groupBy({
			by: ['userId'],
			where: { storeId, userId: { in: userIds } },
			_count: { _all: true },
			_sum: { capturedMinor: true, refundedMinor: true },
		})
		return new Map(
			groups.map((group) => [group.userId ?? '', { orders: group._count._all, spentMinor: (group._sum.capturedMinor ?? 0) - (group._sum.refundedMinor ?? 0) }]),
		)
	}

	return {
		async page({ page = 1, query = '' }: { page?: number; query?: string }) {
			const where = { ...customer, ...(query ? { OR: [{ email: containing(query.toLowerCase()) }, { name: containing(query) }] } : {}) }
			const [users, total] = await Promise.all([
				db.user.findMany({
					where,
					orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
					skip: (page - 1) * CUSTOMERS_PAGE_SIZE,
					take: CUSTOMERS_PAGE_SIZE,
					select: profile,
				}),
				// A search is counted; all customers are read from the kept count (store_counts).
				query ? db.user.count({ where }) : storeCounts(db, storeId, ['customers']).then((counts) => counts.customers),
			])
			const totals = await totalsOf(users.map((user) => user.id))
			return {
				customers: users.map((user) => ({ ...user, ...(totals.get(user.id) ?? { orders: 0, spentMinor: 0 }) })),
				total,
				page,
				pages: Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE)),
			}
		},

		/**
		 * [R129] Guest buyers: the emails of this Store's Orders placed without an account, each with
		 * how many Orders and what was spent (captured less refunded), the latest buyer first; one
		 * grouped query a page, and a count of the distinct emails.
		 */
		async guests({ page = 1, query = '' }: { page?: number; query?: string }) {
			const where = { storeId, userId: null, ...(query ? { email: containing(query.toLowerCase()) } : {}) }
			const like = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
			const [groups, counted] = await Promise.all([
				db.order.groupBy({
					by: ['email'],
					where,
					_count: { _all: true },
					_sum: { capturedMinor: true, refundedMinor: true },
					_max: { createdAt: true },
					orderBy: [{ _max: { createdAt: 'desc' } }, { email: 'asc' }],
					skip: (page - 1) * CUSTOMERS_PAGE_SIZE,
					take: CUSTOMERS_PAGE_SIZE,
				}),
				db.$queryRaw<Array<{ n: number | bigint }>>`SELECT COUNT(DISTINCT "email") AS "n" FROM "orders"
					WHERE "storeId" = ${storeId} AND "userId" IS NULL AND LOWER("email") LIKE ${like} ESCAPE '\\'`,
			])
			const total = Number(counted[0]?.n ?? 0)
			return {
				guests: groups.map((group) => ({
					email: group.email,
					orders: group._count._all,
					spentMinor: (group._sum.capturedMinor ?? 0) - (group._sum.refundedMinor ?? 0),
					lastOrderAt: group._max.createdAt ?? new Date(0),
				})),
				total,
				page,
				pages: Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE)),
			}
		},

		/** [R129] One guest buyer's Orders (by email, without an account), newest first; none is a 404. */
		async guest(email: string) {
			const where = { storeId, userId: null, email }
			const [orders, totals] = await Promise.all([
				db.order.findMany({
					where,
					orderBy: [{ createdAt: 'desc' }, { number: 'desc' }],
					take: ORDERS_SHOWN,
					select: { id: true, number: true, status: true, currency: true, totalMinor: true, createdAt: true },
				}),
				db.order.aggregate({ where, _count: { _all: true }, _sum: { capturedMinor: true, refundedMinor: true } }),
			])
			if (orders.length === 0) throw notFound('That guest buyer')
			return {
				guest: { email, orders: totals._count._all, spentMinor: (totals._sum.capturedMinor ?? 0) - (totals._sum.refundedMinor ?? 0) },
				orders,
			}
		},

		/** One customer and their Orders, newest first; an admin or another Store's account is not found. */
		async get(id: string) {
			const user = await db.user.findFirst({ where: { ...customer, id }, select: profile })
			if (!user) throw notFound('That customer')
			const [orders, totals] = await Promise.all([
				db.order.findMany({
					where: { storeId, userId: user.id },
					orderBy: [{ createdAt: 'desc' }, { number: 'desc' }],
					take: ORDERS_SHOWN,
					select: { id: true, number: true, status: true, currency: true, totalMinor: true, createdAt: true },
				}),
				totalsOf([user.id]),
			])
			return { customer: { ...user, ...(totals.get(user.id) ?? { orders: 0, spentMinor: 0 }) }, orders }
		},
	}
}
