/**
 * Redis killed and restarted, and Redis hung, while shoppers browse and people sign in
 * [R54] [R81]: pages keep answering from the in-memory fallback, the fail-closed classes answer
 * 503 with Retry-After only while Redis is out, readiness says so, and the store notices the
 * recovery by itself. The database plays no part here, so SQLite is enough.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { type PrivateRedis, privateRedis } from '../helpers/redis'
import {
	GENEROUS_LIMITS,
	type Sample,
	failedSignIns,
	answeredBefore,
	expectOrdersWhole,
	fetchStatus,
	figures,
	median,
	prepareDatabase,
	serverErrors,
	sleep,
	traffic,
	waitUntil,
	within,
} from './support'

/** How long the store may take to notice a change of Redis's state (its probe runs every second). */
const NOTICE_MS = 2_500

describe('Redis failing under traffic [R54] [R81]', () => {
	let redis: PrivateRedis
	let store: StoreProcess
	let dir: string
	let database: Awaited<ReturnType<typeof prepareDatabase>>
	const initial = new Map<string, number>()
	let productSlug = ''

	beforeAll(async () => {
		dir = mkdtempSync(path.join(tmpdir(), 'store-faults-redis-'))
		const url = `file:${path.join(dir, 'store.db')}`
		database = await prepareDatabase(url)
		const product = await createProduct(database.db, database.storeId, { stock: 1000, title: 'Lamp' })
		initial.set(product.id, 1000)
		productSlug = product.slug
		redis = await privateRedis()
		store = await startStoreProcess({ databaseUrl: url, env: { E2E_DEMO: '0', RATE_LIMITS: 'on', REDIS_URL: redis.url, ...GENEROUS_LIMITS } })
	})
	afterAll(async () => {
		await store?.stop()
		await redis?.kill()
		await database?.db.$disconnect()
		rmSync(dir, { recursive: true, force: true })
	})

	/** Shoppers on the product page, failed sign-ins (each for a new address), health and readiness. */
	function shoppersAndSignIns() {
		const signIn = failedSignIns(store.origin)
		return traffic({
			page: () => fetchStatus(`${store.origin}/products/${productSlug}`),
			signIn,
			healthz: () => fetchStatus(`${store.origin}/healthz`),
			readyz: () => fetchStatus(`${store.origin}/readyz`),
		})
	}

	/** What every outage must show, judged against its window [down, up]. */
	function judge(samples: Sample[], down: number, up: number, recovered: number) {
		// Pages and liveness never fail: General limits fall back to memory.
		expect(serverErrors(samples.filter((s) => s.label === 'page' || s.label === 'healthz'))).toEqual([])
		// Sign-in is refused closed only while Redis is out, always with a Retry-After, never a 500.
		const signIns = samples.filter((s) => s.label === 'signIn')
		expect(signIns.filter((s) => s.status !== 401 && s.status !== 503).map((s) => s.status)).toEqual([])
		expect(signIns.filter((s) => s.status === 503 && !/^\d+$/.test(s.retryAfter ?? '')).length).toBe(0)
		expect(answeredBefore(samples, down, 'signIn').filter((s) => s.status !== 401).length).toBe(0)
		const outage = within(samples, 'signIn', down + NOTICE_MS, up)
		expect(outage.length).toBeGreaterThan(0)
		expect(outage.filter((s) => s.status !== 503).length).toBe(0)
		expect(within(samples, 'signIn', recovered + NOTICE_MS, Number.POSITIVE_INFINITY).filter((s) => s.status !== 401).length).toBe(0)
		// Readiness: 503 naming Redis during the outage, 200 before and after.
		const readyDuring = within(samples, 'readyz', down + NOTICE_MS, up)
		expect(readyDuring.length).toBeGreaterThan(0)
		expect(readyDuring.every((s) => s.status === 503 && /redis/i.test(s.body ?? ''))).toBe(true)
		expect(answeredBefore(samples, down, 'readyz').every((s) => s.status === 200)).toBe(true)
		expect(within(samples, 'readyz', recovered + NOTICE_MS, Number.POSITIVE_INFINITY).every((s) => s.status === 200)).toBe(true)
	}

	const recoveredAfter = () =>
		waitUntil('the store notices Redis is back', async () => {
			const ready = await fetchStatus(`${store.origin}/readyz`)
			return ready.status === 200
		})

	it('killed and restarted mid-traffic: pages keep answering, sign-in 503 only during the outage, recovery without a restart', async () => {
		await waitUntil('ready with Redis', async () => (await fetchStatus(`${store.origin}/readyz`)).status === 200)
		const run = shoppersAndSignIns()
		await sleep(2_000)
		const down = Date.now()
		await redis.kill()
		await sleep(5_000)
		const up = Date.now()
		await redis.start()
		const recoveryMs = await recoveredAfter()
		const recovered = Date.now()
		await sleep(NOTICE_MS + 1_500)
		const samples = await run.stop()
		judge(samples, down, up, recovered)
		figures('redis-killed', { recoveryMs, samples: samples.length, signIn503: samples.filter((s) => s.label === 'signIn' && s.status === 503).length })
		await expectOrdersWhole(database.db, database.storeId, initial)
	})

	it('hung (SIGSTOP): nothing waits on it, /healthz and pages stay fast, sign-in 503 until it answers again', async () => {
		await waitUntil('ready with Redis', async () => (await fetchStatus(`${store.origin}/readyz`)).status === 200)
		const run = shoppersAndSignIns()
		await sleep(2_000)
		const down = Date.now()
		redis.pause()
		await sleep(6_000)
		const up = Date.now()
		redis.resume()
		const recoveryMs = await recoveredAfter()
		const recovered = Date.now()
		await sleep(NOTICE_MS + 1_500)
		const samples = await run.stop()
		judge(samples, down, up, recovered)
		const p50 = (label: string, from: number, to: number) => median(within(samples, label, from, to).map((s) => s.ms))
		figures('redis-hung', {
			healthzP50BeforeMs: p50('healthz', 0, down),
			healthzP50HungMs: p50('healthz', down + NOTICE_MS, up),
			pageP50BeforeMs: p50('page', 0, down),
			pageP50HungMs: p50('page', down + NOTICE_MS, up),
			recoveryMs,
		})
	})
})
