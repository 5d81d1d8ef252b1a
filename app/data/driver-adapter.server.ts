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

type Statement = {
	reader: boolean
	bind(params: unknown): Statement
	run(...params: unknown[]): unknown
	all(...params: unknown[]): unknown[]
	columns(): unknown[]
	raw(on?: boolean): Statement
}
type Connection = { pragma(source: string): unknown; prepare(source: string, ...rest: unknown[]): Statement }

/** Distinct statements kept compiled per connection: the store's queries are a few hundred. */
export const STATEMENT_CACHE_SIZE = 500

/**
 * A statement handed to Prisma's adapter: the cached compiled statement, with the parameters of
 * this one call. The adapter binds each statement once (`prepare(sql).bind(params)`), which
 * better-sqlite3 allows once per statement object; this passes them to each call instead.
 */
class Reused {
	readonly reader: boolean
	#params: unknown = undefined
	constructor(private readonly statement: Statement) {
		this.reader = statement.reader
	}
	bind(params: unknown) {
		this.#params = params
		return this
	}
	#call<T>(run: (...params: unknown[]) => T): T {
		return this.#params === undefined ? run() : run(this.#params)
	}
	run() {
		return this.#call((...params) => this.statement.run(...params))
	}
	columns() {
		return this.statement.columns()
	}
	raw() {
		this.statement.raw(true)
		return { all: () => this.#call((...params) => this.statement.all(...params)) }
	}
}

/**
 * Keeps each SQL text's compiled statement for the next call (least recently added dropped
 * first). Prisma's adapter prepares every statement anew: compiling it was 6-8% of a checkout's
 * and of a provider event's CPU. Calls with more arguments than the SQL (better-sqlite3's own
 * helpers, such as pragma) get a fresh statement as before. SQLite recompiles a kept statement
 * itself when the schema changes.
 */
export function reuseStatements(client: Connection, size = STATEMENT_CACHE_SIZE) {
	const prepare = client.prepare.bind(client)
	const kept = new Map<string, Statement>()
	client.prepare = (source: string, ...rest: unknown[]) => {
		if (rest.length > 0) return prepare(source, ...rest)
		let statement = kept.get(source)
		if (!statement) {
			statement = prepare(source)
			if (kept.size >= size) kept.delete(kept.keys().next().value as string)
			kept.set(source, statement)
		}
		return new Reused(statement) as unknown as Statement
	}
}

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
			const client = (adapter as unknown as { client?: Connection }).client
			if (!client) throw new Error('The SQLite adapter no longer exposes its connection; update TunedSqlite')
			client.pragma('journal_mode = WAL')
			client.pragma('synchronous = NORMAL')
			client.pragma('busy_timeout = 5000')
			reuseStatements(client)
			return adapter
		}
	}
	return new TunedSqlite({ url })
}
