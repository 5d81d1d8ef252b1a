import { type Db, engineOf } from '../data/db.server'
import { storeCounts } from '../data/store-counts.server'
import type { AdminViewer } from '../data/viewer'
import { notFound } from '../errors.server'
import { ADMIN_SEARCH_CAP, fts5Query, searchTerms, tsQuery } from '../rules/search-terms'

export const CUSTOMERS_PAGE_SIZE = 20
/** The most recent Orders a customer's page lists. */
const ORDERS_SHOWN = 50

type Totals = { orders: number; spentMinor: number }

/** The same words as the GIN index of the PostgreSQL migration `customer_search`: keep them identical. */
const PG_CUSTOMER_WORDS = `to_tsvector('simple', u."name" || ' ' || translate(u."email", '.@+_-', '     '))`

/**
 * [R115] One page of the Store's customers with every word of `terms` as a prefix of a
 * word of their name or email, newest first, and how many there are up to ADMIN_SEARCH_CAP, from
 * the search index alone: SQLite's `customer_search` holds each customer's Store (its rowids
 * follow the order accounts were created in) and an index of every word's first one to three
 * letters, PostgreSQL's GIN index finds the accounts and sorts only those. Neither the count nor
 * a page reads past the cap, so a common word costs the same in a store of any size, and never a
 * pass over every customer as a substring search would.
 */
async function searchCustomers(db: Db, storeId: string, { terms, skip, take }: { terms: string[]; skip: number; take: number }) {
	const page = `LIMIT ${Number(take)} OFFSET ${Number(skip)}`
	const upToCap = `LIMIT ${ADMIN_SEARCH_CAP + 1}`
	// The page's accounts in the same statement, by primary key, kept to this Store's customers here too.
	const profile = `u."id", u."name", u."email", u."createdAt"`
	const customer = (storeParam: string) => `u."storeId" = ${storeParam} AND u."role" = 'user'`
	type Row = { id: string; name: string; email: string; createdAt: Date | string }
	let rows: Row[]
	let counted: Array<{ n: number | bigint }>
	if (engineOf(db) === 'sqlite') {
		const question = `scope : "${storeId.replaceAll('"', '""')}" AND {name email} : (${fts5Query(terms)})`
		const match = `FROM "customer_search" WHERE "customer_search" MATCH ?`
		;[rows, counted] = await Promise.all([
			db.$queryRawUnsafe<Row[]>(
				`SELECT ${profile} FROM "customer_search" JOIN "users" u ON u."id" = "customer_search"."userId" WHERE "customer_search" MATCH ? AND ${customer('?')} ORDER BY "customer_search".rowid DESC ${page}`,
				question,
				storeId,
			),
			db.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${match} ${upToCap})`, question),
		])
	} else {
		const match = `FROM "users" u WHERE ${PG_CUSTOMER_WORDS} @@ to_tsquery('simple', $1) AND ${customer('$2')}`
		;[rows, counted] = await Promise.all([
			db.$queryRawUnsafe<Row[]>(`SELECT ${profile} ${match} ORDER BY u."createdAt" DESC, u."id" DESC ${page}`, tsQuery(terms), storeId),
			db.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${match} ${upToCap}) AS found`, tsQuery(terms), storeId),
		])
	}
	// A raw read of SQLite gives the time as Prisma stored it (ISO text); PostgreSQL's is a Date.
	return { users: rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) })), total: Number(counted[0]?.n ?? 0) }
}

/**
 * [R115] Customers as Store Admin sees them: the accounts of its Store that are not admins,
 * read-only (no credential, session or factor is ever selected), with how many Orders each
 * placed and what they spent (captured less refunded), read for a whole page from the kept
 * totals. Accounts are searched by the start of any word of the name or email, ignoring case
 * (`ada`, `lovelace`, `ada@example`), through an index on both engines; guest buyers, whose
 * emails are read from their Orders, by any part of the email.
 */
export function adminCustomersRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const customer = { storeId, role: 'user' }
	const profile = { id: true, name: true, email: true, createdAt: true } as const

	/** SQLite's LIKE ignores ASCII case already; PostgreSQL's needs the insensitive mode. */
	const containing = (text: string) => (engineOf(db) === 'postgresql' ? { contains: text, mode: 'insensitive' } : { contains: text }) as { contains: string }

	/** [R139] Kept with every Order write (customer_totals): a row a customer, however many Orders. */
	const totalsOf = async (userIds: string[]): Promise<Map<string, Totals>> => {
		if (userIds.length === 0) return new Map()
		const rows = await db.customerTotal.findMany({
			where: { storeId, userId: { in: userIds } },
			select: { userId: true, orders: true, capturedMinor: true, refundedMinor: true },
		})
		return new Map(rows.map((row) => [row.userId, { orders: row.orders, spentMinor: Number(row.capturedMinor - row.refundedMinor) }]))
	}

	/** Every customer, newest first; the number of them read from the kept count (store_counts). */
	const listed = async (skip: number) => {
		const [users, total] = await Promise.all([
			db.user.findMany({ where: customer, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take: CUSTOMERS_PAGE_SIZE, select: profile }),
			storeCounts(db, storeId, ['customers']).then((counts) => counts.customers),
		])
		return { users, total }
	}

	const searched = async (terms: string[], skip: number) => {
		// A page past the cap is not read: it could only be reached by a hand-made address.
		if (skip >= ADMIN_SEARCH_CAP) return { users: [], total: (await searchCustomers(db, storeId, { terms, skip: 0, take: 0 })).total }
		return searchCustomers(db, storeId, { terms, skip, take: CUSTOMERS_PAGE_SIZE })
	}

	return {
		async page({ page = 1, query = '' }: { page?: number; query?: string }) {
			const skip = (page - 1) * CUSTOMERS_PAGE_SIZE
			const terms = searchTerms(query)
			// A question without a word lists every customer, as no question does.
			const { users, total } = terms.length > 0 ? await searched(terms, skip) : await listed(skip)
			const totals = await totalsOf(users.map((user) => user.id))
			// A search counts to the cap and one more: `more` says there are others past it.
			const more = terms.length > 0 && total > ADMIN_SEARCH_CAP
			const shown = more ? ADMIN_SEARCH_CAP : total
			return {
				customers: users.map((user) => ({ ...user, ...(totals.get(user.id) ?? { orders: 0, spentMinor: 0 }) })),
				total: shown,
				more,
				page,
				pages: Math.max(1, Math.ceil(shown / CUSTOMERS_PAGE_SIZE)),
			}
		},

		/**
		 * [R129] Guest buyers: the emails of this Store's Orders placed without an account, each with
		 * how many Orders and what was spent (captured less refunded), the latest buyer first; a page
		 * of the kept rows (guest_buyers) in the order of their index, and the kept count. A search
		 * by any part of the email reads the buyers, never their Orders, and counts up to the cap.
		 */
		async guests({ page = 1, query = '' }: { page?: number; query?: string }) {
			const skip = (page - 1) * CUSTOMERS_PAGE_SIZE
			const where = { storeId, ...(query ? { email: containing(query.toLowerCase()) } : {}) }
			// Past the cap a search's page is not read: it could only be reached by a hand-made address.
			const [rows, total] = await Promise.all([
				query && skip >= ADMIN_SEARCH_CAP
					? []
					: db.guestBuyer.findMany({
							where,
							orderBy: [{ lastOrderAt: 'desc' }, { email: 'desc' }],
							skip,
							take: CUSTOMERS_PAGE_SIZE,
							select: { email: true, orders: true, capturedMinor: true, refundedMinor: true, lastOrderAt: true },
						}),
				// Every guest buyer is a kept count; a search counts its matches up to the cap and one more.
				query ? db.guestBuyer.count({ where, take: ADMIN_SEARCH_CAP + 1 }) : storeCounts(db, storeId, ['guests']).then((counts) => counts.guests),
			])
			const more = Boolean(query) && total > ADMIN_SEARCH_CAP
			const shown = more ? ADMIN_SEARCH_CAP : total
			return {
				guests: rows.map((row) => ({
					email: row.email,
					orders: row.orders,
					spentMinor: Number(row.capturedMinor - row.refundedMinor),
					lastOrderAt: row.lastOrderAt,
				})),
				total: shown,
				more,
				page,
				pages: Math.max(1, Math.ceil(shown / CUSTOMERS_PAGE_SIZE)),
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
