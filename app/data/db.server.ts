import { getConfig } from '../config/env.server'
import { type DatabaseProvider, databaseProvider } from '../config/database-url'
import { createDriverAdapter } from './driver-adapter.server'
import { PrismaClient as PostgresClient } from './generated/postgresql/client'
import { Prisma, PrismaClient as SqliteClient } from './generated/sqlite/client'

/**
 * Both generated clients share the same models (app/data/schemas.test.ts),
 * so the SQLite client's type describes either one.
 */
export type Db = SqliteClient

/** Prisma's tag for a raw statement's fragments: the runtime's, the same for either engine's client. */
export const sql = Prisma.sql
/** Joins statement fragments or values with a separator (`, ` unless told), as Prisma's `join`. */
export const sqlJoin = Prisma.join

export function createDb(url: string): Db {
	const adapter = createDriverAdapter(url)
	const engine = databaseProvider(url)
	// 'minimal': an error carries Prisma's message and code, without the code frame of the call that
	// failed. The other formats capture a stack trace (new Error()) on every query to draw that frame.
	const options = { adapter, errorFormat: 'minimal' as const }
	const db = engine === 'postgresql' ? (new PostgresClient(options) as unknown as Db) : new SqliteClient(options)
	engines.set(db, engine)
	return db
}

const globalForDb = globalThis as unknown as { storeDb?: Db; storeDbEngines?: WeakMap<Db, DatabaseProvider> }

// On globalThis like the client itself: the server entry and the app build each bundle this
// module, and the client one of them makes is the one the other uses.
const engines = (globalForDb.storeDbEngines ??= new WeakMap())

/** The engine behind a client, for the rare statement one engine has and the other lacks. */
export function engineOf(db: Db): DatabaseProvider {
	const engine = engines.get(db)
	if (!engine) throw new Error('engineOf: a client that createDb did not make')
	return engine
}

/** A transaction on `db` whose client engineOf knows too (raw statements inside it need the engine). */
export function transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
	const engine = engineOf(db)
	return db.$transaction((tx) => {
		engines.set(tx as unknown as Db, engine)
		return work(tx as unknown as Db)
	})
}

/** The process-wide client; kept on globalThis so dev-server reloads reuse it. */
export function getDb(): Db {
	globalForDb.storeDb ??= createDb(getConfig().databaseUrl)
	return globalForDb.storeDb
}
