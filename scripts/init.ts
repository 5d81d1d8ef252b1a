/**
 * `npm run init` (also run by the container at start-up): applies migrations,
 * creates the Store and the seeded Store Admin account. Safe to run again.
 */
import { getAuth } from '../app/auth/auth.server'
import { seedDemoProducts } from '../app/catalog/demo.server'
import { getStorage } from '../app/uploads/storage/index.server'
import { checkSvg } from '../app/uploads/svg.server'
import { ensureOfflineConnection, upsertStripeConnection } from '../app/payments/connections.server'
import { getDb } from '../app/data/db.server'
import { ensureRuntimeStore } from '../app/data/runtime-store.server'
import { closeInvalidationBus } from '../app/data/invalidation.server'
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, refusesPublishedPassword, seedAdmin } from '../app/auth/seed-admin.server'
import { loadConfigOrExit, storedSecretsReadableOrExit } from '../server/config'
import { migrateDatabaseUnlessCurrent } from '../server/migrate'
import { unverifiedScope } from '../app/data/scope'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run init [-- --demo]

Applies the database migrations for DATABASE_URL (default file:./data/store.db),
creates the Store, its offline payment Connection, and the Store Admin account from
ADMIN_EMAIL and ADMIN_PASSWORD (or the published defaults, with a warning). With
STRIPE_SECRET_KEY set it creates or updates the Connection "stripe" (keys stored
encrypted). Idempotent: a password an operator chose is never changed. Once
ADMIN_PASSWORD is set, no account keeps the admin role with the published password:
the named account takes ADMIN_PASSWORD, any other is no longer an admin, and both are
signed out. In production the published password is refused (exit 1) unless neither
ADMIN_EMAIL nor ADMIN_PASSWORD is set. Reads .env.

  --demo   also create a handful of demo Products (never by default; in production
           it prints a warning, since demo products are then for sale).`)
	process.exit(0)
}

const config = loadConfigOrExit('init')

/** R23: one line, before anything is changed. */
function refusePublishedPassword(email: string): never {
	console.error(
		`[init] Refusing the published admin password in production: ADMIN_PASSWORD is unset or the published default, so ${email} ` +
			'would sign in with a password anyone can read. Set ADMIN_PASSWORD to a strong password of your own.',
	)
	process.exit(1)
}
if (refusesPublishedPassword({ ...config.admin, production: config.isProduction })) {
	refusePublishedPassword((config.admin.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase())
}

console.log(`[init] database: ${config.databaseProvider}`)
const migrated = await migrateDatabaseUnlessCurrent(config.databaseUrl, { quiet: true })
console.log(migrated === 'applied' ? '[init] migrations applied' : '[init] migrations: all applied already')

const db = getDb()
const store = await ensureRuntimeStore(db)
console.log(`[init] store: ${store.name}`)
await storedSecretsReadableOrExit('init', config)

const scope = unverifiedScope(db, store.id)
await ensureOfflineConnection(scope)
if (config.stripe) {
	await upsertStripeConnection(scope, config.stripe)
	console.log('[init] Stripe Connection "stripe" configured (keys stored encrypted)')
}
// Process warnings (a library's notice about Node versions) as one line of init's own output.
process.removeAllListeners('warning')
process.on('warning', (warning) => console.warn(`[init] ${warning.message.split('\n')[0]}`))

if (process.argv.includes('--demo')) {
	if (config.isProduction) console.warn('[init] WARNING: adding demo Products to a production store; they are for sale until archived.')
	const storage = getStorage()
	const created = await seedDemoProducts(scope, {
		put: (key, bytes, type) => storage.put(key, bytes, type),
		checkSvg,
		failed(slug, error) {
			console.warn(`[init] demo product ${slug}: its image could not be stored (${(error as Error).message?.slice(0, 120)}); it is added without one`)
			return null
		},
	})
	console.log(`[init] demo products: ${created} created`)
}

const outcome = await seedAdmin({
	db,
	auth: getAuth(),
	email: config.admin.email,
	password: config.admin.password,
	production: config.isProduction,
})
if (outcome.kind === 'published-password-refused') refusePublishedPassword(outcome.email)
if (outcome.kind === 'weak-password') {
	console.error(
		`[init] ADMIN_PASSWORD is refused: ${outcome.reason} Choose a stronger one (the same rules as sign-up); ` +
			'no Store Admin account was created or changed.',
	)
	await db.$disconnect()
	process.exit(1)
}
if (outcome.kind === 'created') console.log(`[init] created Store Admin ${outcome.email}`)
if (outcome.kind === 'exists') console.log(`[init] Store Admin ${outcome.email} exists; password left unchanged`)
if (outcome.kind === 'password-replaced') {
	console.warn(`[init] Store Admin ${outcome.email} signed in with the published password: it now uses ADMIN_PASSWORD, and its sessions were ended.`)
}
if (outcome.kind === 'not-admin') {
	console.warn(
		`[init] WARNING: ${outcome.email} is a registered account without the admin role; ` + 'it was not promoted. Set ADMIN_EMAIL to an unused address.',
	)
}
for (const email of outcome.retired) {
	console.warn(
		`[init] ${email} signed in with the published password: it is no longer an admin, that password no longer signs it in ` +
			'(it has a random one now), and its sessions and reset links were ended.',
	)
}
if (outcome.publishedPassword) {
	const line = '!'.repeat(72)
	console.warn(
		[
			line,
			`!! The Store Admin ${outcome.email} signs in with the PUBLISHED password`,
			`!! (${DEFAULT_ADMIN_PASSWORD}). Anyone can read it. Set ADMIN_PASSWORD to a`,
			'!! strong password of your own and run init again, or change it at',
			'!! /account/password, before this store is reachable from the internet.',
			line,
		].join('\n'),
	)
}
await db.$disconnect()
// Demo products told running stores to re-read their catalog (over Redis, when set): send it.
await closeInvalidationBus()
