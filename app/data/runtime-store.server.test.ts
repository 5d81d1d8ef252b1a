import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from '../../server/migrate'
import { PROVIDERS } from '../../tests/helpers/databases'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { ensureOfflineConnection } from '../payments/connections.server'
import { createDb } from './db.server'
import { unverifiedScope } from './scope'
import { ensureRuntimeStore } from './runtime-store.server'

describe.each(PROVIDERS)('init on two instances at once, on %s [R126]', (provider) => {
	const cleanups: Array<() => Promise<unknown> | unknown> = []
	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	})

	it('creates one runtime Store and one offline Connection, and neither call fails', async () => {
		let url: string
		if (provider === 'postgresql') {
			const created = await createTestDatabase('store_init_race')
			cleanups.push(() => dropTestDatabase(created.name))
			url = created.url
		} else {
			const dir = mkdtempSync(join(tmpdir(), 'store-init-race-'))
			cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
			url = `file:${join(dir, 'store.db')}`
		}
		migrateDatabase(url, { quiet: true })
		// Two clients, as two processes have: each reads, then inserts. SQLite is one process's
		// file (several instances need PostgreSQL): there, two calls on one client.
		const first = createDb(url)
		const dbs = [first, provider === 'postgresql' ? createDb(url) : first]
		cleanups.push(() => Promise.all(dbs.map((db) => db.$disconnect())))
		const stores = await Promise.all(dbs.map((db) => ensureRuntimeStore(db)))
		expect(stores[0]!.id).toBe(stores[1]!.id)
		expect(await dbs[0]!.store.count()).toBe(1)
		const connections = await Promise.all(dbs.map((db) => ensureOfflineConnection(unverifiedScope(db, stores[0]!.id))))
		expect(connections[0]!.id).toBe(connections[1]!.id)
		expect(await dbs[0]!.connection.count({ where: { handle: 'offline' } })).toBe(1)
	})
})
