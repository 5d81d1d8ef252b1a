import { type Db, engineOf } from '../data/db.server'
import { ADMIN_SEARCH_CAP, fts5Query, tsQuery } from '../rules/search-terms'
import type { OrderStatus } from '../rules/order-status'

/** The same words as the GIN index of the PostgreSQL migration `order_search`: keep them identical. */
const PG_ORDER_WORDS = `to_tsvector('simple', translate(o."email", '.@+_-', '     '))`

export type OrderMatch = { id: string; number: number }
type OrderQuestion = { terms: string[]; number: number | null; status?: OrderStatus }

/** The FTS5 question of a search: the Store, the status when one is asked, every word as a prefix. */
function ftsQuestion(storeId: string, { terms, status }: Pick<OrderQuestion, 'terms' | 'status'>) {
	const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`
	return [`scope : ${quoted(storeId)}`, ...(status ? [`status : ${quoted(status)}`] : []), `email : (${fts5Query(terms)})`].join(' AND ')
}

/**
 * [R144] How many Orders' emails match the words, up to ADMIN_SEARCH_CAP and one more, from the
 * index alone (SQLite reads no Order's columns for it).
 */
export async function countMatchingOrders(db: Db, storeId: string, { terms, status }: Pick<OrderQuestion, 'terms' | 'status'>) {
	const upToCap = ADMIN_SEARCH_CAP + 1
	const counted =
		engineOf(db) === 'sqlite'
			? await db.$queryRawUnsafe<Array<{ n: number | bigint }>>(
					`SELECT COUNT(*) AS n FROM (SELECT rowid FROM "order_search" WHERE "order_search" MATCH ? LIMIT ${upToCap})`,
					ftsQuestion(storeId, { terms, status }),
				)
			: await db.$queryRawUnsafe<Array<{ n: number | bigint }>>(
					`SELECT COUNT(*) AS n FROM (SELECT 1 FROM "orders" o
					 WHERE o."storeId" = $1 AND ${PG_ORDER_WORDS} @@ to_tsquery('simple', $2) ${status ? `AND o."status" = $3` : ''} LIMIT ${upToCap}) AS found`,
					storeId,
					tsQuery(terms),
					...(status ? [status] : []),
				)
	return Number(counted[0]?.n ?? 0)
}

/**
 * [R144] The Store's Orders whose email has every word of `terms` as the start of one of its
 * words (and, with `number`, that Order too), newest first: `take` of them, at most
 * ADMIN_SEARCH_CAP and one more, which says there are others. SQLite reads its FTS5 index `order_search`, whose rows
 * hold each Order's Store, status and number and follow the order Orders were written in, from
 * the newest down; PostgreSQL its GIN index, or the Store's Orders by number when a word is so
 * common that walking them finds the newest matches sooner. Neither reads past the cap.
 */
export async function matchingOrders(
	db: Db,
	storeId: string,
	{ terms, number, status, take = ADMIN_SEARCH_CAP + 1 }: OrderQuestion & { take?: number },
): Promise<OrderMatch[]> {
	const upToCap = Math.min(Number(take), ADMIN_SEARCH_CAP + 1)
	let rows: Array<{ id: string; number: number | bigint }>
	if (engineOf(db) === 'sqlite') {
		rows = await db.$queryRawUnsafe(
			`SELECT "orderId" AS id, "number" AS number FROM "order_search" WHERE "order_search" MATCH ? ORDER BY rowid DESC LIMIT ${upToCap}`,
			ftsQuestion(storeId, { terms, status }),
		)
	} else {
		rows = await db.$queryRawUnsafe(
			`SELECT o."id" AS id, o."number" AS number FROM "orders" o
			 WHERE o."storeId" = $1 AND ${PG_ORDER_WORDS} @@ to_tsquery('simple', $2) ${status ? `AND o."status" = $3` : ''}
			 ORDER BY o."number" DESC LIMIT ${upToCap}`,
			storeId,
			tsQuery(terms),
			...(status ? [status] : []),
		)
	}
	const found = rows.map((row) => ({ id: row.id, number: Number(row.number) }))
	if (number !== null && !found.some((match) => match.number === number)) {
		const exact = await db.order.findFirst({ where: { storeId, number, ...(status ? { status } : {}) }, select: { id: true, number: true } })
		if (exact) found.push(exact)
	}
	return found.sort((a, b) => b.number - a.number).slice(0, upToCap)
}
