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
	const file = resolve(url.slice('file:'.length))
	// A new user has no data/ folder yet; SQLite would fail to create the file.
	mkdirSync(dirname(file), { recursive: true })
	return tunedSqlite(`file:${file}`)
}

type Pragmas = { pragma(source: string): unknown }

/**
 * The embedded database tuned for a web server (docs/decisions/014-sqlite-wal.md), set on the
 * connection as it opens, before any query: WAL lets reads go on during a write and commits
 * with one sync instead of several; synchronous=NORMAL syncs at checkpoints (a power cut may
 * lose the last commits, never the database); writers wait up to 5 s for the lock.
 */
function tunedSqlite(url: string) {
	class TunedSqlite extends sqliteAdapter().PrismaBetterSqlite3 {
		override async connect() {
			const adapter = await super.connect()
			const client = (adapter as unknown as { client?: Pragmas }).client
			if (!client) throw new Error('The SQLite adapter no longer exposes its connection; update TunedSqlite')
			client.pragma('journal_mode = WAL')
			client.pragma('synchronous = NORMAL')
			client.pragma('busy_timeout = 5000')
			return adapter
		}
	}
	return new TunedSqlite({ url })
}
