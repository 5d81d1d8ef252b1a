import { randomUUID } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { cookieHeader } from './http'
import { type Auth, createAuth } from '../../app/auth/auth.server'
import { parseConfig } from '../../app/config/env.server'
import type { DatabaseProvider } from '../../app/config/database-url'
import { createDb, type Db } from '../../app/data/db.server'
import type { AdminViewer } from '../../app/data/viewer'
import { installSignInHooks } from '../../app/repositories.server'
import { ensureRuntimeStore, runtimeStoreId } from '../../app/data/runtime-store.server'
import { migrateDatabase } from '../../server/migrate'
import { createTestDatabase, createTestDatabaseFrom, dropTestDatabase } from './postgres'

// Sign-in in tests merges the guest cart as the server does: the commerce hooks auth is given.
installSignInHooks()

export type TestDatabase = {
	provider: DatabaseProvider
	url: string
	db: Db
	auth: Auth
	storeId: string
}

export const PROVIDERS: DatabaseProvider[] = ['sqlite', 'postgresql']

/** A client, a better-auth instance and the runtime Store on this run's database of `provider`. */
export async function openTestDatabase(provider: DatabaseProvider): Promise<TestDatabase> {
	const shared = inject('databases')[provider]
	const url = provider === 'sqlite' ? workerCopy(shared) : shared
	const db = createDb(url)
	const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url })
	const auth = createAuth({ db, config })
	return { provider, url, db, auth, storeId: await runtimeStoreId(db) }
}

/**
 * Test files run in several worker processes at once. PostgreSQL serves them all from one
 * database; SQLite is one file per writer in practice, so each worker gets its own copy of the
 * migrated file (made once, beside it; the global teardown removes the folder).
 */
function workerCopy(url: string) {
	const file = url.replace(/^file:/, '')
	const mine = file.replace(/\.db$/, `-worker-${process.env.VITEST_POOL_ID ?? '0'}.db`)
	if (!existsSync(mine)) copyFileSync(file, mine)
	return `file:${mine}`
}

let sequence = 0

/** A unique email, so tests sharing a database never collide. */
export function uniqueEmail(label = 'shopper') {
	sequence += 1
	return `${label}-${process.pid}-${Date.now()}-${sequence}@example.com`
}

/** Registers a Customer through better-auth's own sign-up and returns its session cookie. */
export async function signUpCustomer(auth: Auth, email = uniqueEmail()) {
	const { headers, response } = await auth.api.signUpEmail({
		body: { name: 'Test Shopper', email, password: 'correct horse battery' },
		returnHeaders: true,
	})
	return { userId: response.user.id, email, cookie: cookieHeader(headers) }
}

/** Signs up a Customer as above and gives back a Store Admin viewer of them in `t`'s Store (their database role stays 'user'). */
export async function signUpAdmin(t: Pick<TestDatabase, 'auth' | 'storeId'>, email?: string) {
	const me = await signUpCustomer(t.auth, email)
	const viewer: AdminViewer = { kind: 'user', role: 'admin', storeId: t.storeId, userId: me.userId, email: me.email, name: 'Admin' }
	return { viewer, ...me }
}

/** A new Store with a unique handle beside the runtime one, for proving another Store's rows stay out of reach. */
export function anotherStore(db: Db) {
	return db.store.create({ data: { handle: `other-${randomUUID()}`, name: 'Other' }, select: { id: true } })
}

/**
 * A database of its own for `provider` (migrated, with the runtime Store), for tests that change
 * Store-wide settings other test files running at the same time must not see. `close()` drops it.
 */
export async function openPrivateTestDatabase(provider: DatabaseProvider): Promise<TestDatabase & { close(): Promise<void> }> {
	// A copy of the run's migrated template (tests/setup/databases.global.ts), or migrated here
	// when no global setup made one.
	const template = inject('databaseTemplates')
	const dir = provider === 'sqlite' ? mkdtempSync(join(tmpdir(), 'store-private-')) : null
	const pgDatabase =
		provider === 'postgresql'
			? template
				? await createTestDatabaseFrom('store_private', template.postgresql)
				: await createTestDatabase('store_private')
			: null
	const url = pgDatabase ? pgDatabase.url : `file:${join(dir ?? '', 'store.db')}`
	if (template && dir) copyFileSync(template.sqlite, join(dir, 'store.db'))
	if (!template) migrateDatabase(url, { quiet: true })
	const db = createDb(url)
	await ensureRuntimeStore(db)
	const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url })
	const auth = createAuth({ db, config })
	return {
		provider,
		url,
		db,
		auth,
		storeId: await runtimeStoreId(db),
		async close() {
			await db.$disconnect()
			if (pgDatabase) await dropTestDatabase(pgDatabase.name)
			if (dir) rmSync(dir, { recursive: true, force: true })
		},
	}
}
