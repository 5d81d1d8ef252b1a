import { type Db, engineOf } from '../data/db.server'
import type { Viewer } from '../data/viewer'
import { fts5Query, tsQuery } from '../rules/search-terms'
import type { SearchSort } from './sort'

/**
 * [R110] One question, two engines: which active Products of the viewer's Store have every
 * word (as a prefix) in their title or description. SQLite answers from the FTS5 index
 * `product_search` (kept by triggers), PostgreSQL from a GIN index on the same tsvector
 * expression as its migration. Terms arrive as plain words (search-terms.ts) and are passed
 * as bound parameters, never spliced into the SQL (SQLite's `?` are positional, PostgreSQL's
 * `$n` numbered).
 */
const PG_DOCUMENT = `to_tsvector('simple', p."title" || ' ' || p."description")`

/** Ties broken as the catalog breaks them (catalog.server.ts), so a sort lists alike in both. */
const ORDER: Record<Exclude<SearchSort, 'relevance'>, string> = {
	newest: `p."createdAt" DESC, p."id" DESC`,
	'price-asc': `p."priceMinor" ASC, p."id" ASC`,
	'price-desc': `p."priceMinor" DESC, p."id" DESC`,
	name: `p."title" ASC, p."id" ASC`,
}

export async function searchProductIds(
	db: Db,
	viewer: Viewer,
	{ terms, sort, skip, take }: { terms: readonly string[]; sort: SearchSort; skip: number; take: number },
): Promise<{ ids: string[]; total: number }> {
	if (terms.length === 0) return { ids: [], total: 0 }
	const sqlite = engineOf(db) === 'sqlite'
	const match = sqlite
		? `FROM "product_search" s JOIN "products" p ON p."id" = s."productId"
		   WHERE "product_search" MATCH ? AND p."storeId" = ? AND p."status" = 'active'`
		: `FROM "products" p
		   WHERE ${PG_DOCUMENT} @@ to_tsquery('simple', $1) AND p."storeId" = $2 AND p."status" = 'active'`
	const relevance = sqlite
		? `bm25("product_search") ASC, p."createdAt" DESC, p."id" ASC`
		: `ts_rank(${PG_DOCUMENT}, to_tsquery('simple', $1)) DESC, p."createdAt" DESC, p."id" ASC`
	const question = sqlite ? fts5Query(terms) : tsQuery(terms)
	const [rows, counted] = await Promise.all([
		db.$queryRawUnsafe<Array<{ id: string }>>(
			`SELECT p."id" AS id ${match} ORDER BY ${sort === 'relevance' ? relevance : ORDER[sort]} LIMIT ${Number(take)} OFFSET ${Number(skip)}`,
			question,
			viewer.storeId,
		),
		db.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT COUNT(*) AS n ${match}`, question, viewer.storeId),
	])
	return { ids: rows.map((row) => row.id), total: Number(counted[0]?.n ?? 0) }
}
