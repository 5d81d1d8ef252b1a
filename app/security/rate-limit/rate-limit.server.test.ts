import IORedis from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import routes from '../../routes'
import { parseConfig } from '../../config/env.server'
import { ROUTE_CLASSES, classify } from './classes'
import { memoryLimiter, type Limiter, redisLimiter } from './limiter.server'
import { createStoreLimiter, rateLimitHeaders } from './rate-limit.server'

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Every route id of app/routes.ts, as React Router derives it (file path without extension). */
function routeIds(entries: ReadonlyArray<{ id?: string; file: string; children?: unknown }>): string[] {
	return entries.flatMap((entry) => [entry.id ?? entry.file.replace(/\.(tsx?|jsx?)$/, ''), ...routeIds((entry.children as typeof entries | undefined) ?? [])])
}

describe('route classes [R50] (four classes, one per request)', () => {
	it('gives every route of the route table a class (a new route without one fails here)', () => {
		const ids = routeIds(routes as never)
		expect(ids.length).toBeGreaterThan(20)
		for (const id of ids) expect(ROUTE_CLASSES[id], id).toBeDefined()
	})

	it('puts the spec’s Sensitive routes in Sensitive: newsletter, checkout requests and sessions, payment intents', () => {
		expect(classify('routes/store/newsletter', 'POST').routeClass).toBe('sensitive')
		expect(classify('routes/store/newsletter-unsubscribe', 'GET').routeClass).toBe('sensitive')
		expect(classify('routes/store/newsletter-unsubscribe', 'POST').routeClass).toBe('sensitive')
		expect(classify('routes/store/checkout', 'POST').routeClass).toBe('sensitive')
		expect(classify('routes/store/order', 'POST').routeClass).toBe('sensitive')
	})

	it('classes sign-in writes and /api/auth/* writes as Authentication, Store Admin and uploads as Admin', () => {
		expect(classify('routes/auth/sign-in', 'POST')).toEqual({ routeClass: 'authentication', form: true })
		expect(classify('routes/auth/sign-in', 'GET').routeClass).toBe('general')
		expect(classify('routes/api/auth', 'POST').routeClass).toBe('authentication')
		expect(classify('routes/api/upload', 'POST').routeClass).toBe('admin')
		expect(classify('routes/admin/orders', 'GET').routeClass).toBe('admin')
		expect(classify(undefined, 'GET').routeClass).toBe('general')
	})

	it('classes writing a review as Sensitive, refused beside its form, while reading the product stays General [R50]', () => {
		expect(classify('routes/store/product', 'POST')).toEqual({ routeClass: 'sensitive', form: true })
		expect(classify('routes/store/product', 'GET').routeClass).toBe('general')
		expect(classify('routes/admin/reviews', 'POST').routeClass).toBe('admin')
	})
})

type Backend = { name: string; make: () => Promise<{ limiter: Limiter; close: () => Promise<void> }> }

const rule = { limit: 3, windowSeconds: 2 }
const BACKENDS: Backend[] = [
	{ name: 'memory', make: async () => ({ limiter: memoryLimiter(), close: async () => undefined }) },
	{
		name: 'redis',
		make: async () => {
			// Sensitive fails closed, so a Redis that does not answer fails this test instead of
			// quietly falling back to memory.
			const store = createStoreLimiter(parseConfig({ REDIS_URL: SHARED_REDIS, RATE_LIMIT_SENSITIVE: '3/2' }), (line) => {
				throw new Error(line)
			})
			const limiter: Limiter = {
				async check(key) {
					const decision = await store.check(key, 'sensitive')
					if (decision === null || decision === 'unavailable') throw new Error(`Redis at ${SHARED_REDIS} is required by this test (${String(decision)})`)
					return decision
				},
			}
			return { limiter, close: () => store.close() }
		},
	},
]

describe.each(BACKENDS.map((b) => [b.name, b] as const))(
	'the limit contract on the %s backend [R51] (429, Retry-After, X-RateLimit-Reset)',
	(_name, backend) => {
		let limiter: Limiter
		let close: () => Promise<void>
		beforeAll(async () => {
			;({ limiter, close } = await backend.make())
		})
		afterAll(() => close())

		it('allows `limit` requests in a window, refuses the next with a reset in the future, and allows again after the reset', async () => {
			const key = `k-${Math.random()}`
			const decisions = []
			for (let i = 0; i < 4; i++) decisions.push(await limiter.check(key, rule))
			expect(decisions.map((d) => d.success)).toEqual([true, true, true, false])
			expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0])
			const refused = decisions[3]!
			expect(refused.limit).toBe(3)
			expect(refused.resetMs).toBeGreaterThan(Date.now())
			const headers = rateLimitHeaders(refused)
			expect(Number(headers['Retry-After'])).toBeGreaterThanOrEqual(1)
			expect(Number(headers['Retry-After'])).toBeLessThanOrEqual(rule.windowSeconds * 2)
			expect(Number(headers['X-RateLimit-Reset'])).toBe(Math.ceil(refused.resetMs / 1000))
			expect(headers['X-RateLimit-Limit']).toBe('3')
			expect(headers['X-RateLimit-Remaining']).toBe('0')
			await new Promise((resolve) => setTimeout(resolve, Math.max(0, refused.resetMs - Date.now()) + 1100))
			expect((await limiter.check(key, rule)).success).toBe(true)
		})

		it('keeps separate keys apart', async () => {
			const a = `a-${Math.random()}`
			for (let i = 0; i < 3; i++) await limiter.check(a, rule)
			expect((await limiter.check(a, rule)).success).toBe(false)
			expect((await limiter.check(`b-${Math.random()}`, rule)).success).toBe(true)
		})

		it('sends no Retry-After on a request that passed', async () => {
			expect(rateLimitHeaders(await limiter.check(`c-${Math.random()}`, rule))['Retry-After']).toBeUndefined()
		})
	},
)

/**
 * Both backends keep one kind of window: it starts at a key's first request, admits `limit`
 * within it however the burst falls on the clock, and its reported reset is when the whole limit
 * is back. Only Date is faked; Redis keeps its own time for expiry, and a 60 s window outlives
 * the test. The Redis limiter is used alone, not through BACKENDS' store limiter, whose health
 * probe would run on the faked clock.
 */
describe.each([
	['memory', () => ({ limiter: memoryLimiter(), close: async () => undefined })],
	[
		'redis',
		() => {
			const redis = new IORedis(SHARED_REDIS, { maxRetriesPerRequest: 1 })
			return { limiter: redisLimiter(redis, `test:rl:${Math.random()}`), close: async () => void redis.disconnect() }
		},
	],
] as const)('one window per key on the %s backend [R51]', (_name, make) => {
	const minute = { limit: 3, windowSeconds: 60 }
	/** A whole minute on the clock, well ahead of now: where a clock-aligned window would end. */
	const boundary = Math.ceil(Date.now() / 60_000) * 60_000 + 10 * 60_000
	let backend: { limiter: Limiter; close: () => Promise<void> }

	beforeAll(() => {
		vi.useFakeTimers({ toFake: ['Date'] })
		backend = make()
	})
	afterEach(() => vi.setSystemTime(boundary))
	afterAll(async () => {
		vi.useRealTimers()
		await backend.close()
	})

	it('refuses the request over the limit when a burst crosses a whole minute on the clock', async () => {
		const key = `across-${Math.random()}`
		vi.setSystemTime(boundary - 5)
		const before = [await backend.limiter.check(key, minute), await backend.limiter.check(key, minute), await backend.limiter.check(key, minute)]
		vi.setSystemTime(boundary + 5)
		const after = await backend.limiter.check(key, minute)
		expect(before.map((d) => d.success)).toEqual([true, true, true])
		expect(after).toMatchObject({ success: false, remaining: 0 })
		expect(after.resetMs).toBe(boundary - 5 + 60_000)
	})

	it('admits the whole limit again at the reset it reported, and not a millisecond before', async () => {
		const key = `reset-${Math.random()}`
		vi.setSystemTime(boundary + 100)
		for (let i = 0; i < 3; i++) expect((await backend.limiter.check(key, minute)).success).toBe(true)
		vi.setSystemTime(boundary + 30_000)
		const refused = await backend.limiter.check(key, minute)
		expect(refused.success).toBe(false)
		expect(refused.resetMs).toBe(boundary + 100 + 60_000)
		vi.setSystemTime(refused.resetMs - 1)
		expect((await backend.limiter.check(key, minute)).success).toBe(false)
		vi.setSystemTime(refused.resetMs)
		const again = []
		for (let i = 0; i < 4; i++) again.push(await backend.limiter.check(key, minute))
		expect(again.map((d) => [d.success, d.remaining])).toEqual([
			[true, 2],
			[true, 1],
			[true, 0],
			[false, 0],
		])
	})
})

describe('shared across processes (Redis)', () => {
	it('two limiters on one Redis enforce one limit between them', async () => {
		const config = parseConfig({ REDIS_URL: SHARED_REDIS, RATE_LIMIT_SENSITIVE: '4/30' })
		const [one, two] = [createStoreLimiter(config), createStoreLimiter(config)]
		try {
			const key = `shared-${Math.random()}`
			const results = []
			for (let i = 0; i < 3; i++) results.push(await one.check(key, 'sensitive'), await two.check(key, 'sensitive'))
			expect(results.map((d) => (typeof d === 'object' && d ? d.success : d))).toEqual([true, true, true, true, false, false])
		} finally {
			await one.close()
			await two.close()
		}
	})

	it('uses the memory limiter when no REDIS_URL is set, and nothing when limits are off', async () => {
		const memory = createStoreLimiter(parseConfig({ RATE_LIMIT_ADMIN: '1/60' }))
		expect(await memory.check('m', 'admin')).toMatchObject({ success: true })
		expect(await memory.check('m', 'admin')).toMatchObject({ success: false })
		expect(await createStoreLimiter(parseConfig({ RATE_LIMITS: 'off' })).check('m', 'admin')).toBeNull()
	})
})
