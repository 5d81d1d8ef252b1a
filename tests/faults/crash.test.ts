/**
 * The server SIGKILLed in the middle of a crowd of checkouts, then started again on the same
 * database [R67]: every Order is whole or absent, stock + sold stays what it was, and each
 * guest's replayed submit (same idempotency key) ends with exactly one Order, never a 5xx.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { DatabaseProvider } from '../../app/config/database-url'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { connectionScope, sealSecret } from '../../app/security/secret-box.server'
import { createProduct } from '../helpers/commerce'
import { genericRequest, newWebhookSecret } from '../helpers/events'
import { PROVIDERS } from '../helpers/databases'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'
import { Guest } from '../helpers/shopper'
import { expectEventsOnce, expectOrdersWhole, figures, prepareDatabase, purchase, waitUntil } from './support'

const GUESTS = 40

describe.each(PROVIDERS)('SIGKILL mid-checkout, then restart, on %s [R67]', (provider: DatabaseProvider) => {
	const cleanups: Array<() => Promise<void> | void> = []
	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	})

	it('leaves no lost or half-written Order, and every replayed submit ends in exactly one Order', async () => {
		const url = await freshDatabase(provider, cleanups)
		const database = await prepareDatabase(url)
		cleanups.push(() => database.db.$disconnect())
		const products = await Promise.all(Array.from({ length: 4 }, () => createProduct(database.db, database.storeId, { stock: 100, priceMinor: 1500 })))
		const initial = new Map(products.map((product) => [product.id, 100]))

		let store: StoreProcess = await startStoreProcess({ databaseUrl: url, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		const guests = Array.from({ length: GUESTS }, () => new Guest(store.origin))
		const forms = await Promise.all(
			guests.map(async (guest, index) => {
				await guest.add(products[index % products.length]!.id, 2)
				await guest.add(products[(index + 1) % products.length]!.id, 1)
				return guest.checkoutForm(`crash-${index}@example.com`)
			}),
		)

		// Every guest submits at once; the server dies while the submits are being handled.
		const submits = guests.map((guest, index) =>
			guest.send('/checkout', forms[index]).then(
				(r) => r.status,
				() => 0,
			),
		)
		// Killed once the first Orders are committed, so others are mid-transaction.
		await waitUntil('the first Orders are placed', async () => (await database.db.order.count({ where: { storeId: database.storeId } })) >= 3, 60_000, 5)
		await store.crash()
		const first = await Promise.all(submits)
		const placedBeforeCrash = await expectOrdersWhole(database.db, database.storeId, initial)
		expect(placedBeforeCrash).toBeGreaterThanOrEqual(3)

		const crashed = store
		store = await startStoreProcess({ share: crashed, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		const replays = await Promise.all(
			guests.map((guest, index) => {
				guest.origin = store.origin
				return guest.send('/checkout', forms[index])
			}),
		)
		const statuses = replays.map((response) => response.status)
		expect(statuses.filter((status) => status >= 500)).toEqual([])
		expect(statuses.every((status) => status === 302)).toBe(true)

		await expectOrdersWhole(database.db, database.storeId, initial)
		for (let index = 0; index < GUESTS; index++) {
			expect(await database.db.order.count({ where: { storeId: database.storeId, email: `crash-${index}@example.com` } }), `guest ${index}`).toBe(1)
		}
		figures(`sigkill-checkout-${provider}`, { guests: GUESTS, answeredBeforeCrash: first.filter((status) => status === 302).length, placedBeforeCrash })
	})
})

/**
 * The server SIGKILLed while its event worker applies a provider's deliveries, then started again
 * on the same database [R63, R64, R65]: a provider sends each event ten times, refunds before the
 * payments they follow, and goes on sending during the crash; every event is kept once and
 * applied once, and each Order ends paid and refunded to its last cumulative amount.
 */
describe.each(PROVIDERS)('SIGKILL while provider events are applied, then restart, on %s [R63, R64, R65]', (provider: DatabaseProvider) => {
	const cleanups: Array<() => Promise<void> | void> = []
	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	})

	it('applies every event once: none lost between the answer and its effect, none twice', async () => {
		const url = await freshDatabase(provider, cleanups)
		const database = await prepareDatabase(url)
		cleanups.push(() => database.db.$disconnect())
		const webhookSecret = newWebhookSecret()
		let store: StoreProcess = await startStoreProcess({ databaseUrl: url, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		await database.db.connection.create({
			data: {
				storeId: database.storeId,
				handle: 'bank',
				provider: 'generic',
				displayName: 'Bank transfer',
				secretBox: sealSecret({ webhookSecret }, connectionScope(database.storeId, 'bank'), store.secret),
			},
		})
		const product = await createProduct(database.db, database.storeId, { stock: 1000, priceMinor: 2000 })
		const orders: Array<{ id: string; number: number; totalMinor: number }> = []
		for (let i = 0; i < ORDERS_PAID; i++) {
			expect((await purchase(store.origin, product.id, `events-${i}@example.com`, 'bank')).status).toBe(302)
			orders.push(
				await database.db.order.findFirstOrThrow({ where: { email: `events-${i}@example.com` }, select: { id: true, number: true, totalMinor: true } }),
			)
		}
		// Per Order: a refund of 500, one of 800 (cumulative), then the payment; each ten times, interleaved.
		const story = (order: (typeof orders)[number]) => [
			{
				id: `msg_${randomBytes(8).toString('hex')}`,
				type: 'refund.succeeded',
				data: { reference: String(order.number), amount_refunded: 500, currency: 'USD' },
			},
			{
				id: `msg_${randomBytes(8).toString('hex')}`,
				type: 'refund.succeeded',
				data: { reference: String(order.number), amount_refunded: 800, currency: 'USD' },
			},
			{
				id: `msg_${randomBytes(8).toString('hex')}`,
				type: 'payment.succeeded',
				data: { reference: String(order.number), amount: order.totalMinor, currency: 'USD' },
			},
		]
		const events = orders.flatMap(story)
		const deliveries = Array.from({ length: 10 }, () => events).flat()
		// As a provider delivers: a 503 (the store shedding a burst at its door) is sent again after
		// its Retry-After; an answer the crash cut is 0.
		const deliver = async (origin: string, event: (typeof events)[number]): Promise<number> => {
			for (let attempt = 1; ; attempt++) {
				const response = await fetch(
					genericRequest(`${origin}/api/events/bank`, { type: event.type, occurred_at: Math.floor(Date.now() / 1000), data: event.data }, webhookSecret, {
						id: event.id,
					}),
				).catch(() => null)
				if (!response) return 0
				if (response.status !== 503 || attempt === 10) return response.status
				await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000))
			}
		}

		// Half of them at once; the server dies once a few events are kept, with deliveries in
		// flight and the worker busy with what they brought. A delivery cut by the crash is sent
		// again by the second half (every event is in it five more times), as a provider retries.
		const firstHalf = Promise.all(deliveries.slice(0, deliveries.length / 2).map((event) => deliver(store.origin, event)))
		await waitUntil('the first events are kept', async () => (await database.db.providerEvent.count({ where: { storeId: database.storeId } })) >= 6, 60_000, 5)
		await store.crash()
		const answered = await firstHalf
		expect(answered.filter((status) => status !== 200 && status !== 0)).toEqual([])
		const kept = await database.db.providerEvent.count({ where: { storeId: database.storeId } })
		const waiting = await database.db.providerEvent.count({ where: { storeId: database.storeId, outcome: 'received' } })

		const crashed = store
		store = await startStoreProcess({ share: crashed, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		const rest = await Promise.all(deliveries.slice(deliveries.length / 2).map((event) => deliver(store.origin, event)))
		expect(rest.filter((status) => status !== 200)).toEqual([])

		await waitUntil(
			'the worker applies every event',
			async () => (await database.db.providerEvent.count({ where: { storeId: database.storeId, outcome: 'received' } })) === 0,
			60_000,
		)
		expect(await expectEventsOnce(database.db, database.storeId)).toBe(events.length)
		for (const order of orders) {
			expect(
				await database.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, capturedMinor: true, refundedMinor: true } }),
			).toEqual({
				status: 'paid',
				capturedMinor: order.totalMinor,
				refundedMinor: 800,
			})
		}
		const outcomes = await database.db.providerEvent.groupBy({ by: ['outcome'], where: { storeId: database.storeId }, _count: true })
		figures(`sigkill-events-${provider}`, {
			events: events.length,
			deliveries: deliveries.length,
			cutByCrash: answered.filter((status) => status === 0).length,
			keptBeforeCrash: kept,
			waitingAtCrash: waiting,
			outcomes: JSON.stringify(outcomes.map((o) => [o.outcome, o._count])),
		})
	})
})

/** A database of the test's own: a fresh PostgreSQL database, or a SQLite file in a folder of its own. */
async function freshDatabase(provider: DatabaseProvider, cleanups: Array<() => Promise<void> | void>) {
	if (provider === 'postgresql') {
		const created = await createTestDatabase('store_faults')
		cleanups.push(() => dropTestDatabase(created.name))
		return created.url
	}
	const dir = mkdtempSync(path.join(tmpdir(), 'store-faults-crash-'))
	cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
	return `file:${path.join(dir, 'store.db')}`
}

const ORDERS_PAID = 12
