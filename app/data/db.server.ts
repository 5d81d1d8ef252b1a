import { getConfig } from '../config/env.server'
import { databaseProvider } from './database-url'
import { createDriverAdapter } from './driver-adapter.server'
import { PrismaClient as PostgresClient } from './generated/postgresql/client'
import { PrismaClient as SqliteClient } from './generated/sqlite/client'

/**
 * Both generated clients share the same models (app/data/schemas.test.ts),
 * so the SQLite client's type describes either one.
 */
export type Db = SqliteClient

export function createDb(url: string): Db {
	const adapter = createDriverAdapter(url)
	if (databaseProvider(url) === 'postgresql') {
		return new PostgresClient({ adapter }) as unknown as Db
	}
	return new SqliteClient({ adapter })
}

const globalForDb = globalThis as unknown as { storeDb?: Db }

/** The process-wide client; kept on globalThis so dev-server reloads reuse it. */
export function getDb(): Db {
	globalForDb.storeDb ??= createDb(getConfig().databaseUrl)
	return globalForDb.storeDb
}
