/**
 * PostgreSQL stopped and started again while shoppers check out and a provider keeps
 * redelivering an event [R81] [R67] [R63] [R64]. The cluster is the suite's own (initdb on a
 * free port), never the shared one. Liveness stays 200, readiness names the database while it
 * is down, errors happen only inside the outage, the store recovers without a restart, and no
 * Order is lost or half-written and no event applied twice.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectionScope, sealSecret } from '../../app/security/secret-box.server'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { genericRequest, newWebhookSecret } from '../helpers/events'
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres'
import {
	answeredBefore,
	expectEventsOnce,
	expectOrdersWhole,
	fetchStatus,
	figures,
	prepareDatabase,
	purchase,
	serverErrors,
	sleep,
	traffic,
	waitUntil,
	within,
} from './support'

const GRACE_MS = 2_000

describe('PostgreSQL restarted mid-traffic [R81] [R67] [R63] [R64]', () => {
	let cluster: PrivatePostgres
	let store: StoreProcess
	let database: Awaited<ReturnType<typeof prepareDatabase>>
	const initial = new Map<string, number>()
	let productId = ''
	let slug = ''
	const webhookSecret = newWebhookSecret()

	beforeAll(async () => {
		cluster = await startPrivatePostgres()
		database = await prepareDatabase(cluster.url)
		const product = await createProduct(database.db, database.storeId, { stock: 1000, priceMinor: 2500, title: 'Kettle' })
		productId = product.id
		initial.set(product.id, 1000)
		slug = product.slug
		store = await startStoreProcess({ databaseUrl: cluster.url, env: { E2E_DEMO: '0' } })
		await database.db.connection.create({
			data: {
				storeId: database.storeId,
				handle: 'bank',
				provider: 'generic',
				displayName: 'Bank transfer',
				secretBox: sealSecret({ webhookSecret }, connectionScope(database.storeId, 'bank'), store.secret),
			},
		})
	})
	afterAll(async () => {
		await store?.stop()
		await database?.db.$disconnect().catch(() => {})
		cluster?.close()
	})

	it('errors only inside the outage, readiness 503 naming the database, recovery without a restart, nothing lost or applied twice', async () => {
		// An Order paid by bank transfer, whose payment event the provider redelivers throughout.
		expect((await purchase(store.origin, productId, 'payer@example.com', 'bank')).status).toBe(302)
		const order = await database.db.order.findFirstOrThrow({ where: { email: 'payer@example.com' }, select: { id: true, number: true, totalMinor: true } })
		const eventId = `msg_${randomBytes(8).toString('hex')}`
		const payment = {
			type: 'payment.succeeded',
			occurred_at: Math.floor(Date.now() / 1000),
			data: { reference: String(order.number), amount: order.totalMinor, currency: 'USD' },
		}

		let n = 0
		const run = traffic({
			page: () => fetchStatus(`${store.origin}/products/${slug}`),
			checkout: () => purchase(store.origin, productId, `crowd-${n++}@example.com`),
			event: () => fetch(genericRequest(`${store.origin}/api/events/bank`, payment, webhookSecret, { id: eventId })),
			healthz: () => fetchStatus(`${store.origin}/healthz`),
			readyz: () => fetchStatus(`${store.origin}/readyz`),
		})
		await sleep(3_000)
		const down = Date.now()
		cluster.stop()
		await sleep(5_000)
		const up = Date.now()
		cluster.start()
		const recoveryMs = await waitUntil(
			'the store serves pages again',
			async () => (await fetchStatus(`${store.origin}/readyz`)).status === 200 && (await fetchStatus(`${store.origin}/products/${slug}`)).status === 200,
		)
		const recovered = Date.now()
		await sleep(GRACE_MS + 3_000)
		const samples = await run.stop()

		expect(serverErrors(samples.filter((s) => s.label === 'healthz'))).toEqual([])
		// A purchase is several requests: one that began before the outage may end inside it.
		expect(serverErrors(answeredBefore(samples, down))).toEqual([])
		expect(serverErrors(samples.filter((s) => s.at > recovered + GRACE_MS))).toEqual([])
		const readyDuring = within(samples, 'readyz', down + GRACE_MS, up)
		expect(readyDuring.length).toBeGreaterThan(0)
		expect(readyDuring.every((s) => s.status === 503 && /database/i.test(s.body ?? ''))).toBe(true)
		// Shoppers check out again after the restart, with no restart of the store.
		expect(within(samples, 'checkout', recovered + GRACE_MS, Number.POSITIVE_INFINITY).filter((s) => s.status === 302).length).toBeGreaterThan(0)

		const orders = await expectOrdersWhole(database.db, database.storeId, initial)
		expect(await expectEventsOnce(database.db, database.storeId)).toBe(1)
		const paid = await database.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, capturedMinor: true } })
		expect(paid).toEqual({ status: 'paid', capturedMinor: order.totalMinor })
		figures('postgres-restart', {
			outageMs: up - down,
			recoveryMs,
			orders,
			errorsInOutage: serverErrors(samples).length,
			eventDeliveries: samples.filter((s) => s.label === 'event').length,
		})
	})
})
