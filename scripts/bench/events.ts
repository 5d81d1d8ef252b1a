/**
 * The ingest rows of `npm run bench`: verified Stripe events per second, each event delivered 10
 * times (shuffled, 10 at a time), and the count of double-applies (must be 0). Two ways, on
 * SQLite and PostgreSQL:
 * - handler: the receiving endpoint's handler called in this process, as the route calls it;
 * - HTTP: POSTs to /api/events/stripe of the built server, as a provider delivers them (every
 *   middleware, React Router and the response on the wire included), sent with node:http on
 *   keep-alive connections (keepAlivePoster), so the sender takes little of the CPU the server needs.
 * Each row first runs a warm-up of its own deliveries, not counted, as the page rows do (about as
 * long as a page row's), then PASSES measured passes over Orders of their own: the row reports
 * their median, with the slowest and fastest pass.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cartRepository } from '../../app/cart/cart.server'
import { createDb, type Db } from '../../app/data/db.server'
import { ensureRuntimeStore } from '../../app/data/runtime-store.server'
import { placeOrder } from '../../app/orders/checkout.server'
import { recordProviderRef } from '../../app/orders/orders.server'
import { ensureOfflineConnection } from '../../app/payments/connections.server'
import { receiveEvent } from '../../app/payments/events/receive.server'
import { connectionScope, sealSecret } from '../../app/security/secret-box.server'
import { DETAILS } from '../../tests/helpers/commerce'
import { newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../tests/helpers/events'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { migrateDatabase } from '../lib/migrate'
import { unverifiedScope } from '../../app/data/scope'
import { keepAlivePoster, startStore } from './servers'

/** Orders per measured pass: 2,000 deliveries. */
const ORDERS = 200
const PASSES = 3
/** 3,000 deliveries before anything counts: a second or two of the JIT and the pools warming up. */
const WARM_UP_ORDERS = 300
const REPEATS = 10
const CONCURRENCY = 10

export type IngestRow = {
	engine: string
	path: 'handler' | 'HTTP'
	deliveries: number
	/** The median pass. */
	'events/s': number
	'slowest pass': number
	'fastest pass': number
	'unique events applied': number
	'double applies': number
	'orders paid': number
	'non-2xx': number
}

type Delivery = { payload: string; signature: string }
/** Sends one delivery; answers its status and the outcome the store answered. */
type Send = (delivery: Delivery) => Promise<{ status: number; outcome: string }>

/**
 * A Stripe Connection (its webhook secret sealed with `authSecret`), a product and `count` Orders
 * whose Checkout Sessions the store recorded, as checkout leaves them.
 */
async function prepare(db: Db, count: number, authSecret?: string) {
	const store = await ensureRuntimeStore(db)
	const scope = unverifiedScope(db, store.id)
	await ensureOfflineConnection(scope)
	const secret = newWebhookSecret()
	await db.connection.create({
		data: {
			storeId: store.id,
			handle: 'stripe',
			provider: 'stripe',
			displayName: 'Card',
			secretBox: sealSecret({ secretKey: 'sk_test_bench', webhookSecret: secret }, connectionScope(store.id, 'stripe'), authSecret),
		},
	})
	const product = await db.product.create({
		data: {
			storeId: store.id,
			slug: `bench-events-${randomUUID()}`,
			title: 'Bench',
			priceMinor: 100,
			status: 'active',
			variants: { create: { storeId: store.id, priceMinor: 100, stock: 1_000_000 } },
		},
	})
	const orderIds: string[] = []
	for (let i = 0; i < count; i++) {
		const guest = { kind: 'guest' as const, storeId: store.id, guestId: randomUUID() }
		await cartRepository(db, guest).add({ productId: product.id, quantity: 1 })
		const { order } = await placeOrder({ db, viewer: guest, details: DETAILS, connectionHandle: 'stripe', idempotencyKey: randomUUID() })
		// What checkout records when it starts the payment: events reconcile against it.
		await recordProviderRef(scope, { orderId: order.id, providerRef: `cs_bench_${order.id}` })
		orderIds.push(order.id)
	}
	return { storeId: store.id, secret, orderIds }
}

/** Each Order's Session event, REPEATS times, shuffled. */
function deliveriesOf(orderIds: string[], secret: string): Delivery[] {
	const deliveries = orderIds.flatMap((orderId) => {
		const payload = stripeEvents.sessionCompleted({ sessionId: `cs_bench_${orderId}`, paymentIntentId: `pi_${orderId}`, orderId, amount: 100 })
		const signature = stripeSignature(payload, secret)
		return Array.from({ length: REPEATS }, () => ({ payload, signature }))
	})
	return deliveries.sort(() => Math.random() - 0.5)
}

/** Sends every delivery, CONCURRENCY at a time; counts what was applied, per event. */
async function deliver(deliveries: Delivery[], send: Send) {
	const applied = new Map<string, number>()
	let next = 0
	let errors = 0
	const started = performance.now()
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < deliveries.length) {
				const delivery = deliveries[next++]!
				const { status, outcome } = await send(delivery)
				if (status !== 200) errors++
				if (outcome === 'applied') applied.set(delivery.payload, (applied.get(delivery.payload) ?? 0) + 1)
			}
		}),
	)
	return { seconds: (performance.now() - started) / 1000, applied, errors }
}

/** A warm-up (not counted), then PASSES measured passes, each over Orders of its own. */
async function measureIngest(engine: string, path: IngestRow['path'], db: Db, { storeId, secret, orderIds }: Awaited<ReturnType<typeof prepare>>, send: Send) {
	await deliver(deliveriesOf(orderIds.slice(PASSES * ORDERS), secret), send)
	const rates: number[] = []
	const applied = new Map<string, number>()
	let deliveries = 0
	let errors = 0
	for (let pass = 0; pass < PASSES; pass++) {
		const batch = deliveriesOf(orderIds.slice(pass * ORDERS, (pass + 1) * ORDERS), secret)
		const measured = await deliver(batch, send)
		rates.push(batch.length / measured.seconds)
		for (const [payload, count] of measured.applied) applied.set(payload, (applied.get(payload) ?? 0) + count)
		deliveries += batch.length
		errors += measured.errors
	}
	const paid = await db.order.count({ where: { storeId, id: { in: orderIds.slice(0, PASSES * ORDERS) }, status: 'paid' } })
	const sorted = rates.sort((a, b) => a - b)
	return {
		engine,
		path,
		deliveries,
		'events/s': Math.round(sorted[Math.floor(sorted.length / 2)]!),
		'slowest pass': Math.round(sorted[0]!),
		'fastest pass': Math.round(sorted.at(-1)!),
		'unique events applied': applied.size,
		'double applies': [...applied.values()].filter((count) => count > 1).length,
		'orders paid': paid,
		'non-2xx': errors,
	} satisfies IngestRow
}

/** The handler, in this process, on a database of its own. */
async function handlerRow(engine: string, url: string) {
	migrateDatabase(url, { quiet: true })
	const db = createDb(url)
	try {
		const prepared = await prepare(db, PASSES * ORDERS + WARM_UP_ORDERS)
		return await measureIngest(engine, 'handler', db, prepared, async ({ payload, signature }) => {
			const response = await receiveEvent(unverifiedScope(db, prepared.storeId), {
				handle: 'stripe',
				request: stripeRequest('http://bench/api/events/stripe', payload, signature),
			})
			return { status: response.status, outcome: ((await response.json()) as { outcome: string }).outcome }
		})
	} finally {
		await db.$disconnect()
	}
}

/** The outcome a JSON acknowledgement names; '' for any other answer (a refusal's page, say). */
function outcomeOf(body: string): string {
	try {
		return (JSON.parse(body) as { outcome?: string }).outcome ?? ''
	} catch {
		return ''
	}
}

/** The built server (`env` for its database and limits), delivered to over HTTP. */
async function httpRow(engine: string, env: Record<string, string>) {
	const authSecret = randomBytes(32).toString('base64')
	const server = await startStore({ ...env, AUTH_SECRET: authSecret })
	const db = createDb(server.databaseUrl)
	const client = keepAlivePoster(CONCURRENCY)
	const url = `${server.base}/api/events/stripe`
	try {
		const prepared = await prepare(db, PASSES * ORDERS + WARM_UP_ORDERS, authSecret)
		return await measureIngest(engine, 'HTTP', db, prepared, async ({ payload, signature }) => {
			const response = await client.post(url, { 'content-type': 'application/json', 'stripe-signature': signature }, payload)
			return { status: response.status, outcome: outcomeOf(response.body) }
		})
	} finally {
		client.close()
		await db.$disconnect()
		await server.stop()
	}
}

/** Every ingest row: the handler and HTTP, each on SQLite and PostgreSQL (fresh databases, dropped after). */
export async function benchEvents(serverEnv: Record<string, string> = {}): Promise<IngestRow[]> {
	const dir = mkdtempSync(join(tmpdir(), 'store-bench-events-'))
	const handlerDb = await createTestDatabase('store_bench_events')
	const httpDb = await createTestDatabase('store_bench_events_http')
	try {
		return [
			await handlerRow('SQLite', `file:${join(dir, 'events.db')}`),
			await handlerRow('PostgreSQL', handlerDb.url),
			await httpRow('SQLite', serverEnv),
			await httpRow('PostgreSQL', { ...serverEnv, DATABASE_URL: httpDb.url }),
		]
	} finally {
		await dropTestDatabase(handlerDb.name)
		await dropTestDatabase(httpDb.name)
		rmSync(dir, { recursive: true, force: true })
	}
}
