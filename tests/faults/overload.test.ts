/**
 * A store starved of CPU while every dependency is healthy [R123]: load far above what it can
 * serve (failed sign-ins, each an scrypt hash, and page views from a crowd with no pause), and
 * on top of it stalls of its whole process (SIGSTOP for 1.5 s, as a host that takes the CPU
 * away does). PostgreSQL and Redis answer throughout; the store must not say otherwise: no
 * "unavailable" or "is down" log line, no 503 naming a dependency, /readyz 200 all along.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres'
import { type PrivateRedis, privateRedis } from '../helpers/redis'
import { GENEROUS_LIMITS, failedSignIns, fetchStatus, figures, median, prepareDatabase, purchase, sleep, traffic, waitUntil } from './support'

/**
 * Concurrent shoppers with no pause between requests, several times what two cores serve: one in
 * six signs in (scrypt, two at a time per process), the rest view a product.
 */
const CROWD = 24
const STALLS = 4
const STALL_MS = 1_500

describe('overloaded with healthy dependencies [R123]', () => {
	let cluster: PrivatePostgres
	let redis: PrivateRedis
	let store: StoreProcess
	let database: Awaited<ReturnType<typeof prepareDatabase>>
	let productId = ''
	let slug = ''

	beforeAll(async () => {
		cluster = await startPrivatePostgres()
		database = await prepareDatabase(cluster.url)
		const product = await createProduct(database.db, database.storeId, { stock: 100_000, title: 'Teapot' })
		productId = product.id
		slug = product.slug
		redis = await privateRedis()
		store = await startStoreProcess({ databaseUrl: cluster.url, env: { E2E_DEMO: '0', RATE_LIMITS: 'on', REDIS_URL: redis.url, ...GENEROUS_LIMITS } })
	})
	afterAll(async () => {
		await store?.stop()
		await redis?.kill()
		await database?.db.$disconnect().catch(() => {})
		cluster?.close()
	})

	it('blames no dependency: no "unavailable" line, no 503 naming one, /readyz 200 throughout [R123]', async () => {
		await waitUntil('ready', async () => (await fetchStatus(`${store.origin}/readyz`)).status === 200)
		const signIn = failedSignIns(store.origin)
		let n = 0
		const crowd = Object.fromEntries(
			Array.from({ length: CROWD }, (_, i) => [`crowd${i}`, i % 6 === 0 ? signIn : () => fetchStatus(`${store.origin}/products/${slug}`)]),
		)
		const run = traffic(
			{
				...crowd,
				checkout: () => purchase(store.origin, productId, `buyer-${n++}@example.com`),
				healthz: () => fetchStatus(`${store.origin}/healthz`),
				readyz: () => fetchStatus(`${store.origin}/readyz`),
			},
			0,
		)
		await sleep(4_000)
		// The process stalls as a whole: its timers and its sockets wait alike.
		const pid = store.serverPid()
		for (let stall = 0; stall < STALLS; stall++) {
			process.kill(pid, 'SIGSTOP')
			await sleep(STALL_MS)
			process.kill(pid, 'SIGCONT')
			await sleep(1_500)
		}
		await sleep(4_000)
		const samples = await run.stop()

		const log = store.stderr()
		expect(log.split('\n').filter((line) => /unavailable|is down|not answering/i.test(line))).toEqual([])
		const readyz = samples.filter((s) => s.label === 'readyz')
		expect(readyz.length).toBeGreaterThan(10)
		expect(readyz.filter((s) => s.status !== 200).map((s) => `${s.status} ${s.body ?? ''}`)).toEqual([])
		// No answer of the store blames a dependency (nor fails otherwise): every 5xx but the
		// shedding's own fast 503 ("busy", never a dependency's name) is listed [R125].
		const shed = samples.filter((s) => s.status === 503 && /The store is busy/.test(s.body ?? ''))
		expect(samples.filter((s) => (s.status >= 500 || s.status === 0) && !shed.includes(s)).map((s) => `${s.label} ${s.status} ${s.body ?? ''}`)).toEqual([])
		// The load was real: the store's own loop was late by more than every old deadline.
		const slowestHealthz = Math.max(...samples.filter((s) => s.label === 'healthz').map((s) => s.ms))
		expect(slowestHealthz).toBeGreaterThanOrEqual(STALL_MS - 100)
		figures('overload-healthy-dependencies', {
			samples: samples.length,
			signIns: samples.filter((s) => s.label.startsWith('crowd') && s.status === 401).length,
			pageP50Ms: median(samples.filter((s) => s.label === 'crowd1').map((s) => s.ms)),
			slowestHealthzMs: slowestHealthz,
			readyz: readyz.length,
			shed: shed.length,
		})
	})
})
