/**
 * The provider-event rows of `npm run bench`, on SQLite and PostgreSQL. Intake (verify, keep,
 * answer) and application (the event worker) are measured apart, as they run apart:
 * - intake, handler: verified Stripe deliveries per second through the endpoint's handler in this
 *   process, each event delivered 10 times (shuffled, 10 at a time); nothing is applied;
 * - intake, HTTP: the same POSTed to /api/events/stripe of the built server, as a provider delivers
 *   them (every middleware, React Router and the response on the wire included), sent with
 *   node:http on keep-alive connections (keepAlivePoster), while the server's own event worker
 *   applies them; the row then waits for the worker to finish and checks every Order paid once;
 * - apply: events applied per second by the worker's loop (applyAllReceived) over events the
 *   handler kept.
 * Each row first runs a warm-up of its own, not counted, then PASSES measured passes over Orders of
 * their own: the row reports their median, with the slowest and fastest pass.
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
import { applyAllReceived } from '../../app/payments/events/worker.server'
import { connectionScope, sealSecret } from '../../app/security/secret-box.server'
import { DETAILS } from '../../tests/helpers/commerce'
import { newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../tests/helpers/events'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { migrateDatabase } from '../../server/migrate'
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
	path: 'intake, handler' | 'intake, HTTP' | 'apply'
	/** Deliveries (intake) or events (apply) in the measured passes. */
	count: number
	/** The median pass: deliveries answered, or events applied, per second. */
	'per s': number
	'slowest pass': number
	'fastest pass': number
	/** Orders of the measured passes paid once their events were applied (every one of them). */
	'orders paid': number
	/** Orders whose captured amount is not what one payment made: applied twice, or not at all. */
	'double applies': number
	'non-2xx': number
}

type Delivery = { payload: string; signature: string }
/** Sends one delivery; answers its status. */
type Send = (delivery: Delivery) => Promise<number>

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

/** Sends every delivery, CONCURRENCY at a time. */
async function deliver(deliveries: Delivery[], send: Send) {
	let next = 0
	let errors = 0
	const started = performance.now()
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < deliveries.length) {
				if ((await send(deliveries[next++]!)) !== 200) errors++
			}
		}),
	)
	return { seconds: (performance.now() - started) / 1000, errors }
}

type Prepared = Awaited<ReturnType<typeof prepare>>

/** The median, slowest and fastest of the passes' rates. */
function rates(perPass: number[]) {
	const sorted = [...perPass].sort((a, b) => a - b)
	return { 'per s': Math.round(sorted[Math.floor(sorted.length / 2)]!), 'slowest pass': Math.round(sorted[0]!), 'fastest pass': Math.round(sorted.at(-1)!) }
}

/** Once every kept event is applied: the measured Orders paid, and those whose capture is not one payment's. */
async function settled(db: Db, { storeId, orderIds }: Prepared) {
	const ids = orderIds.slice(0, PASSES * ORDERS)
	for (let waited = 0; (await db.providerEvent.count({ where: { storeId, outcome: 'received' } })) > 0 && waited < 120_000; waited += 200) {
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	const paid = await db.order.count({ where: { storeId, id: { in: ids }, status: 'paid' } })
	const wrong = await db.order.count({ where: { storeId, id: { in: ids }, NOT: { capturedMinor: 100 } } })
	return { 'orders paid': paid, 'double applies': wrong }
}

/** Intake: a warm-up (not counted), then PASSES measured passes, each over Orders of its own. */
async function measureIntake(engine: string, path: IngestRow['path'], prepared: Prepared, send: Send) {
	const { secret, orderIds } = prepared
	await deliver(deliveriesOf(orderIds.slice(PASSES * ORDERS), secret), send)
	const perPass: number[] = []
	let count = 0
	let errors = 0
	for (let pass = 0; pass < PASSES; pass++) {
		const batch = deliveriesOf(orderIds.slice(pass * ORDERS, (pass + 1) * ORDERS), secret)
		const measured = await deliver(batch, send)
		perPass.push(batch.length / measured.seconds)
		count += batch.length
		errors += measured.errors
	}
	return { engine, path, count, ...rates(perPass), 'non-2xx': errors }
}

/** Intake through the handler in this process (nothing applied), then the worker's loop over what it kept, on a database of its own. */
async function handlerRows(engine: string, url: string): Promise<IngestRow[]> {
	migrateDatabase(url, { quiet: true })
	const db = createDb(url)
	try {
		const prepared = await prepare(db, PASSES * ORDERS + WARM_UP_ORDERS)
		const scope = unverifiedScope(db, prepared.storeId)
		const send: Send = async ({ payload, signature }) =>
			(await receiveEvent(scope, { handle: 'stripe', request: stripeRequest('http://bench/api/events/stripe', payload, signature) })).status
		const intake = await measureIntake(engine, 'intake, handler', prepared, send)
		// The warm-up's events first, not counted; then each pass's, applied apart.
		const { orderIds, secret } = prepared
		// Each Order's event once, under a new id (the intake above kept others for the same Orders, unapplied).
		const keep = async (ids: string[]) => {
			for (const delivery of new Map(deliveriesOf(ids, secret).map((d) => [d.payload, d])).values()) await send(delivery)
		}
		await db.providerEvent.deleteMany({ where: { storeId: prepared.storeId } })
		await keep(orderIds.slice(PASSES * ORDERS))
		await applyAllReceived(scope)
		const perPass: number[] = []
		let count = 0
		for (let pass = 0; pass < PASSES; pass++) {
			await keep(orderIds.slice(pass * ORDERS, (pass + 1) * ORDERS))
			const started = performance.now()
			const applied = await applyAllReceived(scope)
			perPass.push(applied / ((performance.now() - started) / 1000))
			count += applied
		}
		const outcome = await settled(db, prepared)
		return [
			{ ...intake, 'orders paid': outcome['orders paid'], 'double applies': outcome['double applies'] },
			{ engine, path: 'apply', count, ...rates(perPass), ...outcome, 'non-2xx': 0 },
		]
	} finally {
		await db.$disconnect()
	}
}

/** The built server (`env` for its database and limits), delivered to over HTTP; its own worker applies. */
async function httpRow(engine: string, env: Record<string, string>): Promise<IngestRow> {
	const authSecret = randomBytes(32).toString('base64')
	const server = await startStore({ ...env, AUTH_SECRET: authSecret })
	const db = createDb(server.databaseUrl)
	const client = keepAlivePoster(CONCURRENCY)
	const url = `${server.base}/api/events/stripe`
	try {
		const prepared = await prepare(db, PASSES * ORDERS + WARM_UP_ORDERS, authSecret)
		const intake = await measureIntake(engine, 'intake, HTTP', prepared, async ({ payload, signature }) => {
			return (await client.post(url, { 'content-type': 'application/json', 'stripe-signature': signature }, payload)).status
		})
		return { ...intake, ...(await settled(db, prepared)) }
	} finally {
		client.close()
		await db.$disconnect()
		await server.stop()
	}
}

/** Every event row: the handler's intake and the worker's application, and intake over HTTP, each on SQLite and PostgreSQL (fresh databases, dropped after). */
export async function benchEvents(serverEnv: Record<string, string> = {}): Promise<IngestRow[]> {
	const dir = mkdtempSync(join(tmpdir(), 'store-bench-events-'))
	const handlerDb = await createTestDatabase('store_bench_events')
	const httpDb = await createTestDatabase('store_bench_events_http')
	try {
		return [
			...(await handlerRows('SQLite', `file:${join(dir, 'events.db')}`)),
			...(await handlerRows('PostgreSQL', handlerDb.url)),
			await httpRow('SQLite', serverEnv),
			await httpRow('PostgreSQL', { ...serverEnv, DATABASE_URL: httpDb.url }),
		]
	} finally {
		await dropTestDatabase(handlerDb.name)
		await dropTestDatabase(httpDb.name)
		rmSync(dir, { recursive: true, force: true })
	}
}
