/**
 * `npm run seed:scale -- --products N --orders N --customers N [--seed S]`: fills the fresh
 * database DATABASE_URL names (SQLite or PostgreSQL) with a store of that size, and prints the
 * Store Admin it created. `npm start` then serves it.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createAuth } from '../app/auth/auth.server'
import { seedAdmin } from '../app/auth/seed-admin.server'
import { PROJECT_ROOT } from '../app/config/project-root.server'
import { createDb } from '../app/data/db.server'
import { ensureRuntimeStore } from '../app/data/runtime-store.server'
import { unverifiedScope } from '../app/data/scope'
import { ensureOfflineConnection } from '../app/payments/connections.server'
import { getStorage } from '../app/uploads/storage/index.server'
import { checkSvg } from '../app/uploads/svg.server'
import { loadConfigOrExit } from '../server/config'
import { migrateDatabaseUnlessCurrent } from '../server/migrate'
import { parseScaleArgs } from './lib/scale-args'
import { seedScale } from './lib/scale-seed'

const HELP = `Usage: npm run seed:scale -- --products N --orders N --customers N [--seed S] [--admin-email E]

Fills the database DATABASE_URL names (default file:./data/store.db; SQLite or PostgreSQL),
which must hold no products, Orders or customers yet, with a store of that size: variants on
a third of the products, gallery images, collections, Orders over the last two years in every
status (refunds among them, with their activity log), reviews and newsletter subscribers.
The same sizes and seed (default 1) give the same store. Migrates first, like init. Prints
the Store Admin it created (email and a new random password) at the end; \`npm start\` then
serves the store (with ADMIN_EMAIL set to that email, start-up leaves the account as it is).`

if (process.argv.includes('--help')) {
	console.log(HELP)
	process.exit(0)
}
const parsed = parseScaleArgs(process.argv.slice(2))
if (!parsed.ok) {
	console.error(`[seed:scale] ${parsed.message}\n\n${HELP}`)
	process.exit(2)
}
const { size, adminEmail } = parsed

const config = loadConfigOrExit('seed:scale')
const started = Date.now()
console.log(`[seed:scale] database: ${config.databaseProvider}`)
await migrateDatabaseUnlessCurrent(config.databaseUrl, { quiet: true })
const db = createDb(config.databaseUrl)
try {
	const store = await ensureRuntimeStore(db)
	const [products, orders, customers] = await Promise.all([
		db.product.count({ where: { storeId: store.id } }),
		db.order.count({ where: { storeId: store.id } }),
		db.user.count({ where: { storeId: store.id, role: 'user' } }),
	])
	if (products + orders + customers > 0) {
		console.error(`[seed:scale] the database already holds ${products} products, ${orders} Orders and ${customers} customers: give it a fresh one`)
		process.exit(1)
	}
	const scope = unverifiedScope(db, store.id)
	const connection = await ensureOfflineConnection(scope)
	const password = randomBytes(18).toString('base64url')
	const seeded = await seedAdmin({ db, auth: createAuth({ db, config }), email: adminEmail, password })
	if (seeded.kind !== 'created') {
		console.error(`[seed:scale] could not create the admin ${adminEmail} (${seeded.kind})`)
		process.exit(1)
	}
	const admin = await db.user.findUniqueOrThrow({ where: { email: seeded.email }, select: { id: true, email: true } })
	const imageKeys = await storeImages(store.id)
	const counts = await seedScale(
		{ db, storeId: store.id, connectionId: connection.id, admin, imageKeys, progress: (line) => console.log(`[seed:scale] ${line}`) },
		size,
	)
	console.log(`[seed:scale] done in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}`)
	console.log(`[seed:scale] Store Admin: ${admin.email}  password: ${password}`)
} finally {
	await db.$disconnect()
}

/** The demo drawings, stored once each as uploads of the Store: the galleries show them in turn. */
async function storeImages(storeId: string) {
	const storage = getStorage()
	const keys: string[] = []
	for (const name of ['canvas-tote', 'enamel-mug', 'linen-napkins', 'beeswax-candle', 'field-notebook', 'wool-socks']) {
		const checked = await checkSvg(readFileSync(path.join(PROJECT_ROOT, 'app/catalog/demo-images', `${name}.svg`)))
		if (!checked.ok) throw new Error(`image ${name}: ${checked.message}`)
		const bytes = Buffer.from(checked.svg, 'utf8')
		const key = `stores/${storeId}/uploads/${createHash('sha256').update(`scale:${name}`).digest('hex').slice(0, 32)}.svg`
		await storage.put(key, bytes, 'image/svg+xml')
		await db.uploadedObject.create({
			data: { storeId, key, contentType: 'image/svg+xml', byteSize: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') },
		})
		keys.push(key)
	}
	return keys
}
