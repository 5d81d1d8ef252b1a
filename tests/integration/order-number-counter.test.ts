/**
 * The migration that gives each Store its order-number counter: a Store that already has
 * Orders goes on from its highest number; one without Orders still starts at #1001 [R67].
 * The migrations are applied as SQL, up to and then including that one, on both engines.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseProvider } from '../../app/config/database-url'
import { createDb, type Db } from '../../app/data/db.server'
import { PROVIDERS } from '../helpers/databases'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'

const COUNTER_MIGRATION = '20261124000200_order_number_counter'

function migrations(provider: DatabaseProvider) {
	const folder = `prisma/${provider}/migrations`
	return readdirSync(folder)
		.filter((name) => /^\d{14}_/.test(name))
		.sort()
		.map((name) => ({ name, sql: readFileSync(join(folder, name, 'migration.sql'), 'utf8') }))
}

/** Prisma's migration files: statements end at a semicolon at the end of a line; `--` lines are comments. */
async function apply(db: Db, sql: string) {
	const statements = sql
		.split(/;\s*$/m)
		.map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
		.filter(Boolean)
	for (const statement of statements) await db.$executeRawUnsafe(statement)
}

describe.each(PROVIDERS)('the order-number counter migration on %s [R67]', (provider) => {
	let db: Db
	let cleanup: () => Promise<void>

	beforeAll(async () => {
		if (provider === 'postgresql') {
			const created = await createTestDatabase('store_counter')
			db = createDb(created.url)
			cleanup = () => dropTestDatabase(created.name)
		} else {
			const dir = mkdtempSync(join(tmpdir(), 'store-counter-'))
			db = createDb(`file:${join(dir, 'store.db')}`)
			cleanup = async () => rmSync(dir, { recursive: true, force: true })
		}
	})
	afterAll(async () => {
		await db?.$disconnect()
		await cleanup?.()
	})

	it('starts each Store’s counter after its highest Order number, or at 1000 for a Store without Orders [R67]', async () => {
		const all = migrations(provider)
		const at = all.findIndex((migration) => migration.name === COUNTER_MIGRATION)
		expect(at).toBeGreaterThan(0)
		for (const migration of all.slice(0, at)) await apply(db, migration.sql)

		// Rows as the store had them before the migration, written without the new column.
		const busy = `s-${randomUUID()}`
		const quiet = `s-${randomUUID()}`
		for (const id of [busy, quiet]) {
			await db.$executeRawUnsafe(`INSERT INTO "stores" ("id", "handle", "name", "updatedAt") VALUES ('${id}', '${id}', 'Store', CURRENT_TIMESTAMP)`)
		}
		await db.$executeRawUnsafe(
			`INSERT INTO "connections" ("id", "storeId", "handle", "provider", "displayName", "updatedAt") VALUES ('c-${busy}', '${busy}', 'offline', 'offline', 'Offline', CURRENT_TIMESTAMP)`,
		)
		for (const number of [1001, 1002, 1042]) {
			await db.$executeRawUnsafe(
				`INSERT INTO "orders" ("id", "storeId", "number", "tokenHash", "email", "name", "addressLine1", "city", "postalCode", "country", "currency", "subtotalMinor", "totalMinor", "connectionId", "idempotencyKey", "updatedAt")
				 VALUES ('o-${number}', '${busy}', ${number}, 'h-${number}', 'a@example.com', 'A', '1 St', 'Town', '1', 'US', 'USD', 100, 100, 'c-${busy}', 'k-${number}', CURRENT_TIMESTAMP)`,
			)
		}

		await apply(db, all[at]!.sql)

		const counters = await db.store.findMany({ where: { id: { in: [busy, quiet] } }, select: { id: true, lastOrderNumber: true } })
		expect(Object.fromEntries(counters.map((store) => [store.id, store.lastOrderNumber]))).toEqual({ [busy]: 1042, [quiet]: 1000 })
		// The rest of each row came through the migration untouched (SQLite rebuilds the table).
		expect(await db.order.count({ where: { storeId: busy } })).toBe(3)
	})
})
