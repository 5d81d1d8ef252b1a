/**
 * The limiter when Redis is down, refusing or hung [R54], against private redis-servers this
 * file starts on free ports (the shared one on 6379 is never stopped). No timing assertions:
 * the limiters here have a 60 s command timeout, longer than any test's, so a check that
 * waited on a hung Redis would never finish in time, and the fallback is read from the
 * decision (`source`) and the limiter's probe state, not from a clock.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/env.server'
import { privateRedis, type PrivateRedis } from '../../../tests/helpers/redis'
import { type Availability, type Decision, type Limiter, memoryLimiter, resilientLimiter } from './limiter.server'
import { createStoreLimiter, type StoreLimiter } from './rate-limit.server'

const NEVER_WAITS = { commandTimeoutMs: 60_000, probe: { intervalMs: 200, timeoutMs: 200 } }

const cleanUp: Array<() => Promise<void>> = []
afterEach(async () => {
	for (const step of cleanUp.splice(0).reverse()) await step()
})

async function redisForTest(options?: { start?: boolean }) {
	const redis = await privateRedis(options)
	cleanUp.push(() => redis.kill())
	return redis
}

function limiterOn(redis: PrivateRedis, env: Record<string, string> = {}) {
	const logs: string[] = []
	const limiter = createStoreLimiter(parseConfig({ REDIS_URL: redis.url, ...env }), (line) => logs.push(line), NEVER_WAITS)
	cleanUp.push(() => limiter.close())
	return { limiter, logs }
}

const sourceOf = (decision: Decision | 'unavailable' | null) => (decision && decision !== 'unavailable' ? decision.source : decision)
const fresh = () => `k-${Math.random()}`

async function allClassesOnFallback(limiter: StoreLimiter) {
	for (const routeClass of ['authentication', 'sensitive', 'admin', 'account'] as const) {
		expect(await limiter.check(fresh(), routeClass), routeClass).toBe('unavailable')
	}
	expect(sourceOf(await limiter.check(fresh(), 'general'))).toBe('memory')
}

describe('a hung Redis (SIGSTOP) costs requests nothing once known [R54]', () => {
	it('is found hung by the background probe, with no request made; every class then takes its fallback without asking Redis [R54]', async () => {
		const redis = await redisForTest()
		const { limiter, logs } = limiterOn(redis)
		expect(sourceOf(await limiter.check(fresh(), 'authentication'))).toBe('redis')
		redis.pause()
		await expect.poll(() => limiter.redis, { timeout: 5_000 }).toBe('down')
		expect(logs.filter((line) => line.includes('Redis unavailable'))).toHaveLength(1)
		// These finish while Redis is still stopped: nothing waited on it.
		await allClassesOnFallback(limiter)
		await allClassesOnFallback(limiter)
		expect(logs.filter((line) => line.includes('Redis unavailable'))).toHaveLength(1)
		expect(limiter.redis).toBe('down')
	})

	it('releases a check already waiting on Redis at the health deadline, not the command timeout [R54] [R123]', async () => {
		const redis = await redisForTest()
		const { limiter } = limiterOn(redis)
		expect(sourceOf(await limiter.check(fresh(), 'sensitive'))).toBe('redis')
		redis.pause()
		// Sent before anyone knows: without the release it would wait out the 60 s command timeout.
		const [sensitive, general] = await Promise.all([limiter.check(fresh(), 'sensitive'), limiter.check(fresh(), 'general')])
		expect(sensitive).toBe('unavailable')
		expect(sourceOf(general)).toBe('memory')
		// Readiness of Redis follows a run of failures, not the one request's wait.
		await expect.poll(() => limiter.redis, { timeout: 5_000 }).toBe('down')
	})

	it('notices by itself when the hung Redis answers again: shared limits come back without a request paying for it [R54]', async () => {
		const redis = await redisForTest()
		const { limiter, logs } = limiterOn(redis)
		await limiter.check(fresh(), 'admin')
		redis.pause()
		await expect.poll(() => limiter.redis, { timeout: 5_000 }).toBe('down')
		redis.resume()
		await expect.poll(() => limiter.redis, { timeout: 5_000 }).toBe('up')
		expect(logs.some((line) => line.includes('answering again'))).toBe(true)
		expect(sourceOf(await limiter.check(fresh(), 'admin'))).toBe('redis')
	})
})

describe('a Redis that is down or refusing [R54]', () => {
	it('fails closed for Authentication, Sensitive and Admin and open (to memory) for General when Redis dies, logging once; recovers [R54]', async () => {
		const redis = await redisForTest()
		const { limiter, logs } = limiterOn(redis, { RATE_LIMIT_GENERAL: '2/60' })
		expect(await limiter.check('x', 'authentication')).toMatchObject({ success: true, source: 'redis' })
		await redis.kill()
		await expect.poll(() => limiter.redis, { timeout: 5_000 }).toBe('down')
		await allClassesOnFallback(limiter)
		const general = [await limiter.check('g', 'general'), await limiter.check('g', 'general'), await limiter.check('g', 'general')]
		expect(general.map((d) => (typeof d === 'object' && d ? d.success : d))).toEqual([true, true, false])
		expect(logs.filter((line) => line.includes('unavailable'))).toHaveLength(1)
		await redis.start()
		await expect.poll(() => limiter.redis, { timeout: 8_000 }).toBe('up')
		expect(logs.some((line) => line.includes('answering again'))).toBe(true)
		expect(await limiter.check(fresh(), 'authentication')).toMatchObject({ success: true, source: 'redis' })
	}, 20_000)

	it('starts on the fallback when Redis is down at start, and switches to Redis by itself when it comes up [R54]', async () => {
		const redis = await redisForTest({ start: false })
		const { limiter, logs } = limiterOn(redis)
		await allClassesOnFallback(limiter)
		expect(limiter.redis).toBe('down')
		expect(logs.filter((line) => line.includes('Redis unavailable'))).toHaveLength(1)
		await redis.start()
		await expect.poll(() => limiter.redis, { timeout: 8_000 }).toBe('up')
		expect(sourceOf(await limiter.check(fresh(), 'sensitive'))).toBe('redis')
	}, 20_000)
})

describe('the resilient wrapper', () => {
	function health(): Availability & { reasons: string[] } {
		const reasons: string[] = []
		let state: Availability['state'] = 'up'
		return {
			reasons,
			get state() {
				return state
			},
			settled: Promise.resolve(),
			onLost: () => () => undefined,
			failed(reason) {
				reasons.push(reason)
				state = 'down'
			},
		}
	}

	it('asks a failing Redis once, then takes the fallback without asking it again until the probe says it is back [R54]', async () => {
		let calls = 0
		const failing: Limiter = {
			check: async () => {
				calls++
				throw new Error('ECONNRESET')
			},
		}
		const watched = health()
		const wrapper = resilientLimiter({ primary: failing, fallback: memoryLimiter(), health: watched })
		const rule = { limit: 100, windowSeconds: 60 }
		for (let i = 0; i < 10; i++) expect((await wrapper.check('k', rule, { failOpen: true })).source).toBe('memory')
		await expect(wrapper.check('k', rule, { failOpen: false })).rejects.toThrow('unavailable')
		expect(calls).toBe(1)
		expect(watched.reasons).toEqual(['ECONNRESET'])
	})
})
