import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import type { DatabaseProvider } from '../../app/config/database-url'
import { createDb } from '../../app/data/db.server'
import { ensureRuntimeStore } from '../../app/data/runtime-store.server'
import { migrateDatabase } from '../../server/migrate'
import { createTestDatabase, createTestDatabaseFrom, dropTestDatabase } from '../helpers/postgres'

/**
 * Each test run gets its own SQLite file and its own PostgreSQL database, both
 * migrated from the committed migrations and given the runtime Store, and drops
 * them afterwards. PostgreSQL is required: a missing server fails the run (it is
 * never skipped), with CI=true or without.
 *
 * The migrations run once per engine, into a template that holds the schema and nothing else:
 * the run's databases, and the private ones tests ask for (tests/helpers/databases.ts), are
 * copies of it (a file copy; PostgreSQL's CREATE DATABASE … TEMPLATE), each then given a
 * runtime Store of its own, as a freshly migrated database would be.
 */
declare module 'vitest' {
	export interface ProvidedContext {
		databases: Record<DatabaseProvider, string>
		/** The migrated, empty templates: a SQLite file path and a PostgreSQL database name. */
		databaseTemplates: { sqlite: string; postgresql: string }
	}
}

export default async function setup(project: TestProject) {
	const dir = mkdtempSync(join(tmpdir(), 'store-test-'))
	const sqliteTemplate = join(dir, 'template.db')
	const template = await createTestDatabase('store_template')
	const created: string[] = [template.name]
	try {
		migrateDatabase(`file:${sqliteTemplate}`, { quiet: true })
		migrateDatabase(template.url, { quiet: true })

		copyFileSync(sqliteTemplate, join(dir, 'store.db'))
		const sqliteUrl = `file:${join(dir, 'store.db')}`
		const postgres = await createTestDatabaseFrom('store_test', template.name)
		created.push(postgres.name)

		for (const url of [sqliteUrl, postgres.url]) {
			const db = createDb(url)
			await ensureRuntimeStore(db)
			await db.$disconnect()
		}
		project.provide('databases', { sqlite: sqliteUrl, postgresql: postgres.url })
		project.provide('databaseTemplates', { sqlite: sqliteTemplate, postgresql: template.name })
	} catch (error) {
		for (const name of created) await dropTestDatabase(name)
		rmSync(dir, { recursive: true, force: true })
		throw error
	}

	return async () => {
		for (const name of created.reverse()) await dropTestDatabase(name)
		rmSync(dir, { recursive: true, force: true })
	}
}
