import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { databaseProvider, schemaPath } from '../app/config/database-url'
import { createDriverAdapter } from '../app/data/driver-adapter.server'
import { PROJECT_ROOT as root } from '../app/config/project-root.server'

// From the project's folder, not this file's: init also runs as a bundle in build/.
const prismaBin = path.join(root, 'node_modules/prisma/build/index.js')
/** Node's arguments for Prisma's migration CLI: the preload that lets it exit when done (decision 059). */
export const prismaCli = [`--require=${path.join(root, 'server/prisma-cli-exit.cjs')}`, prismaBin]

/**
 * Applies the migrations of DATABASE_URL's provider (prisma.config.ts picks the
 * schema and its migrations folder). Throws with Prisma's output on failure.
 */
export function migrateDatabase(databaseUrl: string, { quiet = false } = {}) {
	const result = spawnSync(process.execPath, [...prismaCli, 'migrate', 'deploy'], {
		cwd: root,
		env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
		encoding: 'utf8',
	})
	if (result.status !== 0) {
		throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`)
	}
	if (!quiet) process.stdout.write(result.stdout)
}

export type LocalMigration = { name: string; checksum: string | null }
export type AppliedMigration = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown }

/**
 * The migrations folder of a provider, as `prisma migrate deploy` reads it: one folder per
 * migration, in name order, each holding migration.sql. The checksum is the one Prisma records
 * in `_prisma_migrations` (SHA-256 of the file, hex); null where the file is missing.
 */
export function localMigrations(databaseUrl: string): LocalMigration[] {
	const folder = path.join(root, path.dirname(schemaPath(databaseProvider(databaseUrl))), 'migrations')
	return readdirSync(folder, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map(({ name }) => {
			const file = path.join(folder, name, 'migration.sql')
			return { name, checksum: existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null }
		})
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * Whether the database already holds exactly the migrations of the folder, each finished and
 * none rolled back or failed, with the checksums Prisma recorded. Only then may `migrate
 * deploy` be skipped: anything else (a migration to apply, a failed one, one edited after it
 * ran, one the folder does not have) goes to Prisma's CLI, which applies it or says what is wrong.
 */
export function migrationsCurrent(local: LocalMigration[], applied: AppliedMigration[]): boolean {
	if (local.length === 0 || local.some((migration) => migration.checksum === null)) return false
	// A row neither finished nor rolled back is a failed migration, or one applying right now.
	if (applied.some((row) => row.finished_at == null && row.rolled_back_at == null)) return false
	const finished = applied.filter((row) => row.finished_at != null && row.rolled_back_at == null)
	if (finished.length !== local.length) return false
	const byName = new Map(finished.map((row) => [row.migration_name, row.checksum]))
	return byName.size === local.length && local.every((migration) => byName.get(migration.name) === migration.checksum)
}

/**
 * Whether every migration of the folder has a finished row in the history (after the CLI ran).
 * Looser than migrationsCurrent on purpose: rows the folder lacks, or an edited file, are Prisma's
 * to warn about, as they were before this check.
 */
export function everyMigrationFinished(local: LocalMigration[], applied: AppliedMigration[]): boolean {
	const finished = new Set(applied.filter((row) => row.finished_at != null && row.rolled_back_at == null).map((row) => row.migration_name))
	return local.length > 0 && local.every((migration) => finished.has(migration.name))
}

/**
 * `prisma migrate deploy`, unless the database already holds every migration of the folder
 * (see migrationsCurrent): Prisma's CLI is a process of its own that costs two to three seconds
 * of CPU at every start of the store even when it has nothing to apply. A new database (without
 * Prisma's history table) is migrated.
 */
export async function migrateDatabaseUnlessCurrent(databaseUrl: string, { quiet = false } = {}): Promise<'applied' | 'current'> {
	const local = localMigrations(databaseUrl)
	const applied = await appliedMigrations(databaseUrl)
	if (applied && migrationsCurrent(local, applied)) return 'current'
	migrateDatabase(databaseUrl, { quiet })
	// The CLI exits early by design once its work is done (decision 059): check that it was done.
	if (!everyMigrationFinished(local, (await appliedMigrations(databaseUrl)) ?? [])) {
		throw new Error('prisma migrate deploy exited without applying every migration of the folder; run `npm run db:migrate` to see why')
	}
	return 'applied'
}

/**
 * Prisma's history of the database, or null when it has none, read over a connection of its own
 * (the driver the store uses) that is closed again before the CLI runs: Prisma's schema engine
 * could not create its table in a new SQLite file while another connection held it open.
 */
async function appliedMigrations(databaseUrl: string): Promise<AppliedMigration[] | null> {
	const connection = await createDriverAdapter(databaseUrl).connect()
	const query = async (sql: string) => (await connection.queryRaw({ sql, args: [], argTypes: [] })).rows
	try {
		const history =
			databaseProvider(databaseUrl) === 'sqlite'
				? `SELECT 1 FROM "sqlite_master" WHERE "type" = 'table' AND "name" = '_prisma_migrations'`
				: `SELECT 1 FROM "information_schema"."tables" WHERE "table_schema" = current_schema() AND "table_name" = '_prisma_migrations'`
		if ((await query(history)).length === 0) return null
		const rows = await query('SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations"')
		return rows.map(([name, checksum, finishedAt, rolledBackAt]) => ({
			migration_name: String(name),
			checksum: String(checksum),
			finished_at: finishedAt,
			rolled_back_at: rolledBackAt,
		}))
	} finally {
		await connection.dispose()
	}
}
