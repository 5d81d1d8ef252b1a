import { type Db, engineOf } from '../data/db.server'
import type { Viewer } from '../data/viewer'
import { ADMIN_SEARCH_CAP, fts5Query, tsQuery } from '../rules/search-terms'
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

/** The same words as the GIN index of the PostgreSQL migration `product_title_search`: keep them identical. */
const PG_TITLE = `to_tsvector('simple', p."title")`

/**
 * [R145] Store Admin's product search: the Store's Products in any status (or the one asked)
 * with every word, as a prefix, in the title, or with exactly that slug; most recently changed
 * first, and how many there are up to the cap and one more. The title's words come from an index
 * (SQLite: the title column of `product_search`; PostgreSQL: a GIN index of the title alone), the
 * slug from the Store's unique index on it: only the matches are read and sorted, never every
 * Product of the Store as a substring search did.
 */
export async function searchAdminProductIds(
	db: Db,
	storeId: string,
	{ terms, slug, status, skip, take }: { terms: readonly string[]; slug: string; status?: string; skip: number; take: number },
): Promise<{ ids: string[]; total: number }> {
	if (terms.length === 0) return { ids: [], total: 0 }
	const sqlite = engineOf(db) === 'sqlite'
	// SQLite: the matches first (CROSS JOIN keeps them the outer loop), then each Product by key;
	// with an OR in one WHERE it walked the Store's products testing each. PostgreSQL ORs two
	// bitmap scans.
	const match = sqlite
		? `FROM (SELECT "productId" AS id FROM "product_search" WHERE "product_search" MATCH ? UNION SELECT "id" FROM "products" WHERE "storeId" = ? AND "slug" = ?) m
		   CROSS JOIN "products" p ON p."id" = m.id WHERE p."storeId" = ?${status ? ` AND p."status" = ?` : ''}`
		: `FROM "products" p WHERE p."storeId" = $1 AND (${PG_TITLE} @@ to_tsquery('simple', $2) OR p."slug" = $3)${status ? ` AND p."status" = $4` : ''}`
	const params = sqlite
		? [`title : (${fts5Query(terms)})`, storeId, slug, storeId, ...(status ? [status] : [])]
		: [storeId, tsQuery(terms), slug, ...(status ? [status] : [])]
	const [rows, counted] = await Promise.all([
		skip >= ADMIN_SEARCH_CAP
			? []
			: db.$queryRawUnsafe<Array<{ id: string }>>(
					`SELECT p."id" AS id ${match} ORDER BY p."updatedAt" DESC, p."id" DESC LIMIT ${Number(take)} OFFSET ${Number(skip)}`,
					...params,
				),
		db.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${match} LIMIT ${ADMIN_SEARCH_CAP + 1}) AS found`, ...params),
	])
	return { ids: rows.map((row) => row.id), total: Number(counted[0]?.n ?? 0) }
}
