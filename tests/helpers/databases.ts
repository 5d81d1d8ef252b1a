import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { cookieHeader } from './http'
import { type Auth, createAuth } from '../../app/auth/auth.server'
import { parseConfig } from '../../app/config/env.server'
import type { DatabaseProvider } from '../../app/data/database-url'
import { createDb, type Db } from '../../app/data/db.server'
import { ensureRuntimeStore, runtimeStoreId } from '../../app/data/runtime-store.server'
import { migrateDatabase } from '../../scripts/lib/migrate'
import { createTestDatabase, dropTestDatabase } from './postgres'

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
	const url = inject('databases')[provider]
	const db = createDb(url)
	const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url })
	const auth = createAuth({ db, config })
	return { provider, url, db, auth, storeId: await runtimeStoreId(db) }
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

/**
 * A database of its own for `provider` (migrated, with the runtime Store), for tests that change
 * Store-wide settings other test files running at the same time must not see. `close()` drops it.
 */
export async function openPrivateTestDatabase(provider: DatabaseProvider): Promise<TestDatabase & { close(): Promise<void> }> {
	const dir = provider === 'sqlite' ? mkdtempSync(join(tmpdir(), 'store-private-')) : null
	const pgDatabase = provider === 'postgresql' ? await createTestDatabase('store_private') : null
	const url = pgDatabase ? pgDatabase.url : `file:${join(dir ?? '', 'store.db')}`
	migrateDatabase(url, { quiet: true })
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
