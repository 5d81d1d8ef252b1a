import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import type { DatabaseProvider } from '../../app/config/database-url'
import { createDb } from '../../app/data/db.server'
import { ensureRuntimeStore } from '../../app/data/runtime-store.server'
import { migrateDatabase } from '../../scripts/lib/migrate'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'

/**
 * Each test run gets its own SQLite file and its own PostgreSQL database, both
 * migrated from the committed migrations and given the runtime Store, and drops
 * them afterwards. PostgreSQL is required: a missing server fails the run (it is
 * never skipped), with CI=true or without.
 */
declare module 'vitest' {
	export interface ProvidedContext {
		databases: Record<DatabaseProvider, string>
	}
}

export default async function setup(project: TestProject) {
	const dir = mkdtempSync(join(tmpdir(), 'store-test-'))
	const sqliteUrl = `file:${join(dir, 'store.db')}`
	const postgres = await createTestDatabase('store_test')

	for (const url of [sqliteUrl, postgres.url]) {
		migrateDatabase(url, { quiet: true })
		const db = createDb(url)
		await ensureRuntimeStore(db)
		await db.$disconnect()
	}
	project.provide('databases', { sqlite: sqliteUrl, postgresql: postgres.url })

	return async () => {
		await dropTestDatabase(postgres.name)
		rmSync(dir, { recursive: true, force: true })
	}
}
