/**
 * `npm run init` (also run by the container at start-up): applies migrations,
 * creates the Store and the seeded Store Admin account. Safe to run again.
 */
import { getAuth } from '../app/auth/auth.server'
import { seedDemoProducts } from '../app/catalog/demo.server'
import { ensureOfflineConnection, upsertStripeConnection } from '../app/payments/connections.server'
import { getDb } from '../app/data/db.server'
import { ensureRuntimeStore } from '../app/data/runtime-store.server'
import { closeInvalidationBus } from '../app/data/invalidation.server'
import { DEFAULT_ADMIN_PASSWORD, seedAdmin } from '../app/data/seed-admin.server'
import { loadConfigOrExit } from './lib/config'
import { migrateDatabase } from './lib/migrate'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run init [-- --demo]

Applies the database migrations for DATABASE_URL (default file:./data/store.db),
creates the Store, its offline payment Connection, and the Store Admin account from
ADMIN_EMAIL and ADMIN_PASSWORD (or the published defaults, with a warning). With
STRIPE_SECRET_KEY set it creates or updates the Connection "stripe" (keys stored
encrypted). Idempotent: an existing admin's password is never changed. Reads .env.

  --demo   also create a handful of demo Products (never by default; in production
           it prints a warning, since demo products are then for sale).`)
	process.exit(0)
}

const config = loadConfigOrExit('init')

console.log(`[init] database: ${config.databaseProvider}`)
migrateDatabase(config.databaseUrl, { quiet: true })
console.log('[init] migrations applied')

const db = getDb()
const store = await ensureRuntimeStore(db)
console.log(`[init] store: ${store.name}`)

await ensureOfflineConnection(db, store.id)
if (config.stripe) {
	await upsertStripeConnection(db, store.id, config.stripe)
	console.log('[init] Stripe Connection "stripe" configured (keys stored encrypted)')
}
if (process.argv.includes('--demo')) {
	if (config.isProduction) console.warn('[init] WARNING: adding demo Products to a production store; they are for sale until archived.')
	const created = await seedDemoProducts(db, store.id)
	console.log(`[init] demo products: ${created} created`)
}

const outcome = await seedAdmin({
	db,
	auth: getAuth(),
	email: config.admin.email,
	password: config.admin.password,
})
if (outcome.kind === 'created') console.log(`[init] created Store Admin ${outcome.email}`)
if (outcome.kind === 'exists') console.log(`[init] Store Admin ${outcome.email} exists; password left unchanged`)
if (outcome.kind === 'not-admin') {
	console.warn(
		`[init] WARNING: ${outcome.email} is a registered account without the admin role; ` +
			'it was not promoted. Set ADMIN_EMAIL to an unused address.',
	)
}
if (outcome.kind === 'weak-password') {
	console.error(
		`[init] ADMIN_PASSWORD is refused: ${outcome.reason} Choose a stronger one (the same rules as sign-up); ` +
			'no Store Admin account was created.',
	)
	await db.$disconnect()
	process.exit(1)
}
if (outcome.usedDefaults) {
	const line = '!'.repeat(72)
	console.warn(
		[
			line,
			'!! ADMIN_EMAIL / ADMIN_PASSWORD are not set: the Store Admin account uses',
			`!! the PUBLISHED defaults (${outcome.email} / ${DEFAULT_ADMIN_PASSWORD}).`,
			'!! Anyone can read them. Sign in and replace them before this store is',
			'!! reachable from the internet.',
			line,
		].join('\n'),
	)
}
await db.$disconnect()
// Demo products told running stores to re-read their catalog (over Redis, when set): send it.
await closeInvalidationBus()
