import { afterAll, describe, expect, it, vi } from 'vitest'
import { ALL, type InvalidationBus, localBus, redisBus } from './invalidation.server'
import { sharedCache } from './shared-cache.server'
import { privateRedis } from '../../tests/helpers/redis'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

function counter<T>(values: T[]) {
	let calls = 0
	return {
		load: () => Promise.resolve(values[Math.min(calls++, values.length - 1)] as T),
		get calls() {
			return calls
		},
	}
}

describe('the shared cache (per-request work done once, fresh after a write)', () => {
	it('reads once, then answers from memory until the entry is forgotten', async () => {
		const bus = localBus()
		const cache = sharedCache<string>({ topic: 't', ttlMs: 60_000, max: 10, bus: () => bus })
		const source = counter(['first', 'second'])
		expect(await cache.get('k', source.load)).toBe('first')
		expect(await cache.get('k', source.load)).toBe('first')
		expect(source.calls).toBe(1)
		cache.forget('k')
		expect(await cache.get('k', source.load)).toBe('second')
		expect(source.calls).toBe(2)
	})

	it('forgets every entry of its topic, and only of its topic', async () => {
		const bus = localBus()
		const a = sharedCache<number>({ topic: 'a', ttlMs: 60_000, max: 10, bus: () => bus })
		const b = sharedCache<number>({ topic: 'b', ttlMs: 60_000, max: 10, bus: () => bus })
		const sa = counter([1, 2])
		const sb = counter([1, 2])
		await a.get('x', sa.load)
		await b.get('x', sb.load)
		a.forgetAll()
		expect(await a.get('x', sa.load)).toBe(2)
		expect(await b.get('x', sb.load)).toBe(1)
	})

	it('never keeps a value read before a write that committed while the read was in flight', async () => {
		const bus = localBus()
		const cache = sharedCache<string>({ topic: 't', ttlMs: 60_000, max: 10, bus: () => bus })
		let release: (value: string) => void = () => {}
		const slow = cache.get('k', () => new Promise<string>((resolve) => (release = resolve)))
		cache.forget('k') // the write commits while the old read is still running
		release('stale')
		expect(await slow).toBe('stale')
		expect(await cache.get('k', () => Promise.resolve('fresh'))).toBe('fresh')
	})

	it('re-reads after its time to live, the bound for processes without Redis', async () => {
		vi.useFakeTimers()
		try {
			const cache = sharedCache<number>({ topic: 't', ttlMs: 1_000, max: 10, bus: () => localBus() })
			const source = counter([1, 2])
			await cache.get('k', source.load)
			vi.advanceTimersByTime(999)
			expect(await cache.get('k', source.load)).toBe(1)
			vi.advanceTimersByTime(2)
			expect(await cache.get('k', source.load)).toBe(2)
		} finally {
			vi.useRealTimers()
		}
	})

	it('keeps at most `max` entries, does not keep failures, nor values `keep` refuses', async () => {
		const cache = sharedCache<string | null>({ topic: 't', ttlMs: 60_000, max: 2, bus: () => localBus() })
		const loads: string[] = []
		const load = (key: string) => () => (loads.push(key), Promise.resolve(key))
		await cache.get('a', load('a'))
		await cache.get('b', load('b'))
		await cache.get('c', load('c'))
		await cache.get('a', load('a'))
		expect(loads).toEqual(['a', 'b', 'c', 'a'])

		await expect(cache.get('boom', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down')
		expect(await cache.get('boom', () => Promise.resolve('ok'))).toBe('ok')

		const misses = counter<string | null>([null, null])
		await cache.get('missing', misses.load, (value) => value !== null)
		await new Promise((resolve) => setImmediate(resolve))
		await cache.get('missing', misses.load, (value) => value !== null)
		expect(misses.calls).toBe(2)
	})
})

describe('invalidation across processes over Redis (a second process sharing Redis)', () => {
	const buses: InvalidationBus[] = []
	afterAll(async () => {
		await Promise.all(buses.map((bus) => bus.close()))
	})
	const live = async (bus: InvalidationBus) => {
		await expect.poll(() => bus.canCache(), { timeout: 5_000 }).toBe(true)
		return bus
	}

	it('a forget published by one process reaches the other; nothing is cached until subscribed', async () => {
		const one = redisBus(REDIS_URL, () => {})
		const two = redisBus(REDIS_URL, () => {})
		buses.push(one, two)
		const forgotten: string[] = []
		two.subscribe('topic-a', (key) => forgotten.push(key))
		expect(two.canCache()).toBe(false)
		await live(two)
		forgotten.length = 0 // subscribing starts clean: every topic is forgotten once
		const key = `store-${Math.random()}`
		one.publish('topic-a', key)
		one.publish('topic-a', ALL)
		await expect.poll(() => forgotten, { timeout: 5_000 }).toEqual([key, ALL])
	})

	it('two caches in two processes: an edit in one is seen by the next read in the other', async () => {
		const [busA, busB] = [redisBus(REDIS_URL, () => {}), redisBus(REDIS_URL, () => {})]
		buses.push(busA, busB)
		const topic = `profile-${Math.random()}`
		const a = sharedCache<string>({ topic, ttlMs: 60_000, max: 10, bus: () => busA })
		const b = sharedCache<string>({ topic, ttlMs: 60_000, max: 10, bus: () => busB })
		let database = 'Old name'
		let reads = 0
		const read = () => (reads++, Promise.resolve(database))
		expect(await a.get('store', read)).toBe('Old name')
		expect(await b.get('store', read)).toBe('Old name')
		await live(busA)
		await live(busB)
		// Both now keep what they read.
		await a.get('store', read)
		await b.get('store', read)
		reads = 0
		expect(await b.get('store', read)).toBe('Old name')
		expect(reads).toBe(0)
		database = 'New name'
		a.forget('store')
		expect(await a.get('store', read)).toBe('New name')
		await expect.poll(() => b.get('store', read), { timeout: 5_000 }).toBe('New name')
	})

	it('caches nothing while its subscription is down', async () => {
		const bus = redisBus(REDIS_URL, () => {})
		buses.push(bus)
		const cache = sharedCache<number>({ topic: `down-${Math.random()}`, ttlMs: 60_000, max: 10, bus: () => bus })
		await cache.get('warm-up', () => Promise.resolve(0))
		await live(bus)
		await bus.close()
		const source = counter([1, 2, 3])
		await cache.get('k', source.load)
		await cache.get('k', source.load)
		expect(source.calls).toBe(2)
	})
})

describe('the shared cache while Redis is hung (SIGSTOP of a private redis-server) [R54]', () => {
	it('stops caching and forgets what it kept, with no request waiting on Redis; starts clean once Redis answers again [R54]', async () => {
		const redis = await privateRedis()
		const logs: string[] = []
		const bus = redisBus(redis.url, (line) => logs.push(line), { intervalMs: 200, timeoutMs: 200 })
		try {
			const cache = sharedCache<string>({ topic: `hung-${Math.random()}`, ttlMs: 60_000, max: 10, bus: () => bus })
			let database = 'kept'
			let reads = 0
			const read = () => (reads++, Promise.resolve(database))
			await cache.get('k', read)
			await expect.poll(() => bus.canCache(), { timeout: 5_000 }).toBe(true)
			// Subscribing started clean; from now on the entry is kept.
			await cache.get('k', read)
			reads = 0
			expect(await cache.get('k', read)).toBe('kept')
			expect(reads).toBe(0)

			redis.pause()
			await expect.poll(() => bus.canCache(), { timeout: 5_000 }).toBe(false)
			expect(logs.filter((line) => line.includes('Redis unavailable'))).toHaveLength(1)
			// While Redis is still stopped: every read goes to the source (a forget from another
			// process could be held up), and none of them waits on Redis.
			database = 'while hung'
			expect(await cache.get('k', read)).toBe('while hung')
			expect(await cache.get('k', read)).toBe('while hung')
			expect(reads).toBe(2)

			redis.resume()
			await expect.poll(() => bus.canCache(), { timeout: 5_000 }).toBe(true)
			expect(logs.some((line) => line.includes('Redis is back'))).toBe(true)
			database = 'after'
			expect(await cache.get('k', read)).toBe('after')
			expect(await cache.get('k', read)).toBe('after')
			expect(reads).toBe(3)
		} finally {
			await bus.close()
			await redis.kill()
		}
	}, 20_000)
})
