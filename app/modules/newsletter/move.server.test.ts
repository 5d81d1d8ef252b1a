import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROVIDERS } from '../../../tests/helpers/databases'
import { migrateUpTo } from '../../../tests/helpers/migrations'
import { subscribersOf } from '../../../tests/helpers/newsletter'
import { createTestDatabase, dropTestDatabase } from '../../../tests/helpers/postgres'
import { createDb } from '../../data/db.server'
import { migrateDatabase } from '../../../server/migrate'

const MOVE = '20261125000300_modules_newsletter'

describe.each(PROVIDERS)('the newsletter moves into its Module on %s, keeping every address [R31]', (provider) => {
	it('copies confirmed, pending and unsubscribed addresses with their times into mod_newsletter, and drops the old table', async () => {
		const root = mkdtempSync(join(tmpdir(), 'newsletter-move-'))
		const pg = provider === 'postgresql' ? await createTestDatabase('store_move') : null
		const url = pg ? pg.url : `file:${join(root, 'store.db')}`
		let db = createDb(url)
		try {
			migrateUpTo(url, provider, join(root, 'prisma'), MOVE)
			const storeId = 'store-before-the-move'
			await db.$executeRawUnsafe(`INSERT INTO "stores" ("id", "handle", "name", "updatedAt") VALUES ('${storeId}', 'main', 'Shop', CURRENT_TIMESTAMP)`)
			// The times as each engine's Prisma client wrote them: TIMESTAMP(3) in UTC, or SQLite's ISO text (older files: epoch milliseconds).
			const t = (iso: string) => (pg ? `'${iso.replace('T', ' ').replace('Z', '')}'` : `'${iso.replace('Z', '+00:00')}'`)
			const epoch = (iso: string) => (pg ? t(iso) : String(Date.parse(iso)))
			const rows = [
				`('a', '${storeId}', 'confirmed@example.com', ${t('2026-11-01T10:00:00.123Z')}, ${t('2026-11-01T10:05:00.000Z')}, NULL)`,
				`('b', '${storeId}', 'pending@example.com', ${epoch('2026-11-02T11:00:00.000Z')}, NULL, NULL)`,
				`('c', '${storeId}', 'gone@example.com', ${t('2026-11-03T12:00:00.000Z')}, ${t('2026-11-03T12:01:00.000Z')}, ${t('2026-11-04T09:00:00.000Z')})`,
			]
			await db.$executeRawUnsafe(
				`INSERT INTO "newsletter_subscribers" ("id", "storeId", "email", "subscribedAt", "confirmedAt", "unsubscribedAt") VALUES ${rows.join(', ')}`,
			)

			// SQLite: the migration wants the file to itself.
			await db.$disconnect()
			migrateDatabase(url, { quiet: true })
			db = createDb(url)

			const list = subscribersOf(db, storeId)
			const all = (await list.list({ orderBy: { field: 'created_at', direction: 'asc' } })).rows
			expect(
				all.map((r) => [r.id, r.email, r.created_at.toISOString(), r.confirmed_at?.toISOString() ?? null, r.unsubscribed_at?.toISOString() ?? null]),
			).toEqual([
				['a', 'confirmed@example.com', '2026-11-01T10:00:00.123Z', '2026-11-01T10:05:00.000Z', null],
				['b', 'pending@example.com', '2026-11-02T11:00:00.000Z', null, null],
				['c', 'gone@example.com', '2026-11-03T12:00:00.000Z', '2026-11-03T12:01:00.000Z', '2026-11-04T09:00:00.000Z'],
			])
			// Still one row per address and Store, and the old table is gone.
			await expect(list.create({ email: 'pending@example.com', confirmed_at: null, unsubscribed_at: null })).rejects.toThrow(/exists/)
			await expect(db.$queryRawUnsafe('SELECT 1 FROM "newsletter_subscribers"')).rejects.toThrow()
		} finally {
			await db.$disconnect()
			if (pg) await dropTestDatabase(pg.name)
			rmSync(root, { recursive: true, force: true })
		}
	}, 120_000)
})
