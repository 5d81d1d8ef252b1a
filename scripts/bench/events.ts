/**
 * The ingest row of `npm run bench`: verified Stripe events per second through the
 * receiving endpoint's handler, on SQLite and PostgreSQL, with each event delivered 10 times
 * (shuffled, 10 at a time), and the count of double-applies (must be 0).
 */
import { randomUUID } from 'node:crypto'
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

const ORDERS = 200
const REPEATS = 10
const CONCURRENCY = 10

async function prepare(db: Db) {
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
			secretBox: sealSecret({ secretKey: 'sk_test_bench', webhookSecret: secret }, connectionScope(store.id, 'stripe')),
		},
	})
	const product = await db.product.create({
		data: {
			storeId: store.id,
			slug: 'bench',
			title: 'Bench',
			priceMinor: 100,
			status: 'active',
			variants: { create: { storeId: store.id, priceMinor: 100, stock: 1_000_000 } },
		},
	})
	const orderIds: string[] = []
	for (let i = 0; i < ORDERS; i++) {
		const guest = { kind: 'guest' as const, storeId: store.id, guestId: randomUUID() }
		await cartRepository(db, guest).add({ productId: product.id, quantity: 1 })
		const { order } = await placeOrder({ db, viewer: guest, details: DETAILS, connectionHandle: 'stripe', idempotencyKey: randomUUID() })
		// What checkout records when it starts the payment: events reconcile against it.
		await recordProviderRef(scope, { orderId: order.id, providerRef: `cs_bench_${order.id}` })
		orderIds.push(order.id)
	}
	return { storeId: store.id, secret, orderIds }
}

async function run(label: string, url: string) {
	migrateDatabase(url, { quiet: true })
	const db = createDb(url)
	try {
		const { storeId, secret, orderIds } = await prepare(db)
		const deliveries = orderIds.flatMap((orderId) => {
			const payload = stripeEvents.sessionCompleted({ sessionId: `cs_bench_${orderId}`, paymentIntentId: `pi_${orderId}`, orderId, amount: 100 })
			const signature = stripeSignature(payload, secret)
			return Array.from({ length: REPEATS }, () => ({ payload, signature }))
		})
		deliveries.sort(() => Math.random() - 0.5)
		const applied = new Map<string, number>()
		let next = 0
		let errors = 0
		const started = performance.now()
		await Promise.all(
			Array.from({ length: CONCURRENCY }, async () => {
				while (next < deliveries.length) {
					const delivery = deliveries[next++]!
					const response = await receiveEvent(unverifiedScope(db, storeId), {
						handle: 'stripe',
						request: stripeRequest('http://bench/api/events/stripe', delivery.payload, delivery.signature),
					})
					if (response.status !== 200) errors++
					const body = (await response.json()) as { outcome: string }
					if (body.outcome === 'applied') applied.set(delivery.payload, (applied.get(delivery.payload) ?? 0) + 1)
				}
			}),
		)
		const seconds = (performance.now() - started) / 1000
		const paid = await db.order.count({ where: { storeId, status: 'paid' } })
		return {
			engine: label,
			deliveries: deliveries.length,
			'events/s': Math.round(deliveries.length / seconds),
			'unique events applied': applied.size,
			'double applies': [...applied.values()].filter((count) => count > 1).length,
			'orders paid': paid,
			'non-2xx': errors,
		}
	} finally {
		await db.$disconnect()
	}
}

export async function benchEvents() {
	const dir = mkdtempSync(join(tmpdir(), 'store-bench-events-'))
	const postgres = await createTestDatabase('store_bench_events')
	try {
		return [await run('SQLite', `file:${join(dir, 'events.db')}`), await run('PostgreSQL', postgres.url)]
	} finally {
		await dropTestDatabase(postgres.name)
		rmSync(dir, { recursive: true, force: true })
	}
}
