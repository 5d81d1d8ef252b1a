/**
 * `npm run init` (also run by the container at start-up): applies migrations,
 * creates the Store and the seeded Store Admin account. Safe to run again.
 */
import { getAuth } from '../app/auth/auth.server'
import { getDb } from '../app/data/db.server'
import { ensureRuntimeStore } from '../app/data/runtime-store.server'
import { DEFAULT_ADMIN_PASSWORD, seedAdmin } from '../app/data/seed-admin.server'
import { loadConfigOrExit } from './lib/config'
import { migrateDatabase } from './lib/migrate'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run init

Applies the database migrations for DATABASE_URL (default file:./data/store.db),
creates the Store, and creates the Store Admin account from ADMIN_EMAIL and
ADMIN_PASSWORD (or the published defaults, with a warning). Idempotent: an
existing admin's password is never changed. Reads .env when present.`)
	process.exit(0)
}

const config = loadConfigOrExit('init')

console.log(`[init] database: ${config.databaseProvider}`)
migrateDatabase(config.databaseUrl, { quiet: true })
console.log('[init] migrations applied')

const db = getDb()
const store = await ensureRuntimeStore(db)
console.log(`[init] store: ${store.name}`)

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
