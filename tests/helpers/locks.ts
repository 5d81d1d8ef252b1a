import { randomUUID } from 'node:crypto'
import { createDb, type Db } from '../../app/data/db.server'

class Rollback extends Error {}

/**
 * Another connection runs `lock` in a transaction and keeps it open until the returned function
 * rolls it back: nothing it did is kept.
 */
export async function holdLocks(url: string, lock: (tx: Parameters<Parameters<Db['$transaction']>[0]>[0]) => Promise<unknown>) {
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
				throw new Rollback()
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
