import { inject } from 'vitest'
import { cookieHeader } from './http'
import { type Auth, createAuth } from '../../app/auth/auth.server'
import { parseConfig } from '../../app/config/env.server'
import type { DatabaseProvider } from '../../app/data/database-url'
import { createDb, type Db } from '../../app/data/db.server'
import { runtimeStoreId } from '../../app/data/runtime-store.server'

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
