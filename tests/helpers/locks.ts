import { randomUUID } from 'node:crypto'
import { createDb, type Db } from '../../app/data/db.server'

class Rollback extends Error {}

/**
 * Another connection runs `lock` in a transaction and keeps it open until the returned function
 * rolls it back: nothing it did is kept. With `commit`, the returned function commits it instead
 * (another writer that got there first).
 */
export async function holdLocks(
	url: string,
	lock: (tx: Parameters<Parameters<Db['$transaction']>[0]>[0]) => Promise<unknown>,
	{ commit = false }: { commit?: boolean } = {},
) {
	const other = createDb(url)
	let release!: () => void
	const released = new Promise<void>((resolve) => (release = resolve))
	let locked!: () => void
	const holding = new Promise<void>((resolve) => (locked = resolve))
	const transaction = other
		.$transaction(
			async (tx) => {
				await lock(tx)
				locked()
				await released
				if (!commit) throw new Rollback()
			},
			{ maxWait: 10_000, timeout: 120_000 },
		)
		.catch((error) => {
			if (!(error instanceof Rollback)) throw error
		})
	await Promise.race([holding, transaction])
	return async () => {
		release()
		await transaction
		await other.$disconnect()
	}
}

/**
 * Another connection writes `productId`'s row and its variants' rows (where stock is taken) in a
 * transaction and keeps it open: on PostgreSQL those rows stay locked, on SQLite the whole database stays write-locked (so use
 * a database of the test's own there). The returned function rolls it back: nothing it did
 * is kept.
 */
export function holdRowLock(url: string, productId: string) {
	return holdLocks(url, async (tx) => {
		await tx.product.update({ where: { id: productId }, data: { title: `locked-${randomUUID()}` } })
		await tx.productVariant.updateMany({ where: { productId }, data: { updatedAt: new Date() } })
	})
}

/** Resolves once some session of `db`'s PostgreSQL database waits for a lock another holds. */
export async function someoneWaitsForALock(db: Db, { timeoutMs = 10_000 } = {}) {
	const until = Date.now() + timeoutMs
	while (Date.now() < until) {
		const [waiting] = await db.$queryRaw<
			Array<{ n: number }>
		>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
		if ((waiting?.n ?? 0) > 0) return
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
	throw new Error('nobody waited for a lock')
}
