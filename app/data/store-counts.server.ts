import type { Db } from './db.server'

/**
 * What a Store has of each thing Store Admin counts on every visit, read from `store_counts`:
 * triggers on the counted tables keep it in the transaction of every write (orders by status as
 * `orders:<status>`, the activity log as `audit`), so a page reads a row per name instead of
 * counting every Order. A name never written reads 0.
 */
export async function storeCounts<N extends string>(db: Db, storeId: string, names: readonly N[]): Promise<Record<N, number>> {
	const rows = await db.storeCount.findMany({ where: { storeId, name: { in: [...names] } }, select: { name: true, count: true } })
	const counts = Object.fromEntries(names.map((name) => [name, 0])) as Record<N, number>
	for (const row of rows) counts[row.name as N] = row.count
	return counts
}

/** The sum of a Store's counts of `names` (every status of a list, or one). */
export async function storeCountTotal(db: Db, storeId: string, names: readonly string[]) {
	return Object.values<number>(await storeCounts(db, storeId, names)).reduce((sum, n) => sum + n, 0)
}
