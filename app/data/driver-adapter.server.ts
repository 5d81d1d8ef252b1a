import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { onFirstUse } from '../config/optional-packages.server'
import { databaseProvider } from '../config/database-url'

// Only the engine in use is loaded: a SQLite store never carries the PostgreSQL driver.
const postgresAdapter = onFirstUse<typeof import('@prisma/adapter-pg')>('@prisma/adapter-pg')
const sqliteAdapter = onFirstUse<typeof import('@prisma/adapter-better-sqlite3')>('@prisma/adapter-better-sqlite3')

/**
 * The driver adapter for a DATABASE_URL. Used by the runtime client and by
 * prisma.config.ts, so the CLI and the app always open the same database.
 *
 * `exitWhenIdle` is for Prisma's CLI (prisma.config.ts): pg's pool holds an idle connection open
 * for 10 s, and a short-lived process with it; this lets the process end once it is done
 * (decision 059). A server is kept alive by its listener, so the runtime does not need it.
 */
export function createDriverAdapter(url: string, { exitWhenIdle = false } = {}) {
	if (databaseProvider(url) === 'postgresql') {
		return new (postgresAdapter().PrismaPg)({ connectionString: url, ...(exitWhenIdle ? { allowExitOnIdle: true } : {}) })
	}
	const file = sqliteFile(url)
	// A new user has no data/ folder yet; SQLite would fail to create the file.
	mkdirSync(dirname(file), { recursive: true })
	return tunedSqlite(`file:${file}`)
}

/** The absolute path of the SQLite file a `file:` DATABASE_URL names. */
export function sqliteFile(url: string) {
	return resolve(url.slice('file:'.length))
}

/**
 * The embedded database tuned for a web server (docs/decisions/014-sqlite-wal.md), through the
 * adapter's public options and its connection's own `executeScript`, as it opens and before any
 * query: WAL lets reads go on during a write and commits with one sync instead of several;
 * synchronous=NORMAL syncs at checkpoints (a power cut may lose the last commits, never the
 * database); writers wait up to 5 s for the lock (better-sqlite3's `timeout`).
 */
function tunedSqlite(url: string) {
	class TunedSqlite extends sqliteAdapter().PrismaBetterSqlite3 {
		override async connect() {
			const adapter = await super.connect()
			await adapter.executeScript('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
			return adapter
		}
	}
	return new TunedSqlite({ url, timeout: SQLITE_BUSY_TIMEOUT_MS })
}

/** How long a SQLite writer waits for another's lock before it gives up (SQLITE_BUSY). */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000
