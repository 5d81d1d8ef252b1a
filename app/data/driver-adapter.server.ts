import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { databaseProvider } from './database-url'

/**
 * The driver adapter for a DATABASE_URL. Used by the runtime client and by
 * prisma.config.ts, so the CLI and the app always open the same database.
 */
export function createDriverAdapter(url: string) {
	if (databaseProvider(url) === 'postgresql') {
		return new PrismaPg({ connectionString: url })
	}
	const file = resolve(url.slice('file:'.length))
	// A new user has no data/ folder yet; SQLite would fail to create the file.
	mkdirSync(dirname(file), { recursive: true })
	return new PrismaBetterSQLite3({ url: `file:${file}` })
}
