import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateDatabase } from '../../scripts/lib/migrate'
import type { DatabaseProvider } from '../../app/data/database-url'
import { createDb } from '../../app/data/db.server'
import { ensureRuntimeStore } from '../../app/data/runtime-store.server'

/**
 * Each test run gets its own SQLite file and its own PostgreSQL database, both
 * migrated from the committed migrations, and drops them afterwards, so two runs
 * never collide. PostgreSQL is required: a missing server fails the run (it is
 * never skipped), with CI=true or without.
 */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'

declare module 'vitest' {
	export interface ProvidedContext {
		databases: Record<DatabaseProvider, string>
	}
}

export default async function setup(project: TestProject) {
	const dir = mkdtempSync(join(tmpdir(), 'store-test-'))
	const sqliteUrl = `file:${join(dir, 'store.db')}`

	const name = `store_test_${process.pid}_${randomBytes(4).toString('hex')}`
	const admin = new pg.Client({ connectionString: ADMIN_URL })
	try {
		await admin.connect()
	} catch (error) {
		throw new Error(
			`PostgreSQL is required by the test suite and is not reachable at ${new URL(ADMIN_URL).host} ` +
				`(${(error as Error).message}). Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`,
		)
	}
	await admin.query(`CREATE DATABASE "${name}"`)
	const postgresUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).href

	migrateDatabase(sqliteUrl, { quiet: true })
	migrateDatabase(postgresUrl, { quiet: true })
	for (const url of [sqliteUrl, postgresUrl]) {
		const db = createDb(url)
		await ensureRuntimeStore(db)
		await db.$disconnect()
	}
	project.provide('databases', { sqlite: sqliteUrl, postgresql: postgresUrl })

	return async () => {
		await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
		await admin.end()
		rmSync(dir, { recursive: true, force: true })
	}
}
