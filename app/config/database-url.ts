/**
 * DATABASE_URL picks the engine: `file:` is the embedded SQLite default,
 * `postgres://` / `postgresql://` is the production engine. Nothing else is accepted.
 */
export type DatabaseProvider = 'sqlite' | 'postgresql'

export const DEFAULT_DATABASE_URL = 'file:./data/store.db'

export function databaseProvider(url: string): DatabaseProvider {
	if (url.startsWith('file:')) return 'sqlite'
	if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql'
	throw new Error('DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL)')
}

/** The schema (and, beside it, the migrations folder) that serves a provider. */
export function schemaPath(provider: DatabaseProvider) {
	return `prisma/${provider}/schema.prisma`
}
