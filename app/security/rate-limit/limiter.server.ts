import { createHash } from 'node:crypto'
import type { Ratelimit } from '@upstash/ratelimit'
import type IORedis from 'ioredis'
import { onFirstUse } from '../../config/optional-packages.server'
import { withinFreeTime } from '../../data/event-loop.server'
import type { RedisHealth } from '../../data/redis-health.server'

/** Loaded by a store with REDIS_URL only: the in-memory limiter does not need it. */
const upstash = onFirstUse<typeof import('@upstash/ratelimit')>('@upstash/ratelimit')

/**
 * One decision: the 429 contract is built from it (limit, remaining, reset). `source` says
 * which backend counted it: `memory` under REDIS_URL means Redis was unavailable (the fallback).
 */
export type Decision = { success: boolean; limit: number; remaining: number; resetMs: number; source: 'memory' | 'redis' }

export type Rule = { limit: number; windowSeconds: number }

export interface Limiter {
	check(key: string, rule: Rule): Promise<Decision>
	/** Forgets what `key` has used (a sign-in that succeeded clears its failures [R53]). */
	reset?(key: string): Promise<void>
	/** Gives back one of `key`'s counts in its window, if it has any (an attempt that was no failure [R55]). */
	refund?(key: string): Promise<void>
}

/**
 * In-memory fixed windows: the embedded default (one process). Entries expire with their window;
 * a sweep every minute keeps the map from growing with one-off keys.
 */
export function memoryLimiter(now: () => number = Date.now): Limiter & { clear(): void } {
	const windows = new Map<string, { count: number; resetMs: number }>()
	let lastSweep = now()
	return {
		async check(key, rule) {
			const at = now()
			if (at - lastSweep > 60_000) {
				for (const [k, w] of windows) if (w.resetMs <= at) windows.delete(k)
				lastSweep = at
			}
			let window = windows.get(key)
			if (!window || window.resetMs <= at) {
				window = { count: 0, resetMs: at + rule.windowSeconds * 1000 }
				windows.set(key, window)
			}
			window.count++
			return {
				success: window.count <= rule.limit,
				limit: rule.limit,
				remaining: Math.max(0, rule.limit - window.count),
				resetMs: window.resetMs,
				source: 'memory',
			}
		},
		async reset(key) {
			windows.delete(key)
		},
		async refund(key) {
			const window = windows.get(key)
			if (window && window.count > 0) window.count--
		},
		clear() {
			windows.clear()
		},
	}
}

/**
 * The small client @upstash/ratelimit needs (evalsha, eval, get, set), over ioredis: its
 * algorithms run as Lua scripts in Redis, so every process sharing the Redis shares one limit.
 *
 * Its scripts start with `#!lua flags=allow-key-locking`, a flag Redis 7.0 (Debian 12's)
 * refuses; it only matters to Upstash's own cluster. The adapter loads each script without
 * that first line, once, and maps the library's hash to the loaded one, so every later call
 * is a single EVALSHA.
 */
export function upstashClient(redis: IORedis) {
	const loaded = new Map<string, string>()
	const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')
	const noScript = () => Object.assign(new Error('NOSCRIPT No matching script (loaded on first use)'), { name: 'ReplyError' })
	return {
		async evalsha(sha: string, keys: string[], args: unknown[]) {
			const mapped = loaded.get(sha)
			if (!mapped) throw noScript()
			return redis.evalsha(mapped, keys.length, ...keys, ...(args as string[]))
		},
		async eval(script: string, keys: string[], args: unknown[]) {
			const portable = script.replace(/^#!lua[^\n]*\n/, '')
			const mapped = (await redis.script('LOAD', portable)) as string
			loaded.set(sha1(script), mapped)
			return redis.evalsha(mapped, keys.length, ...keys, ...(args as string[]))
		},
		get: (key: string) => redis.get(key),
		set: (key: string, value: string) => redis.set(key, value),
	}
}

/**
 * Redis-backed limits through @upstash/ratelimit (one Ratelimit per rule), so every process
 * sharing the Redis shares one limit. Its token bucket, holding `limit` tokens and refilled with
 * `limit` once per window, counts as the memory limiter does: a window starts at a key's first
 * request, admits at most `limit`, and at its reset the whole limit is back
 * (docs/decisions/071-redis-limits-as-anchored-windows.md). The library's sliding window was
 * used before: it let a burst across its clock-aligned boundary through one over the limit, and
 * the reset it reported could still refuse.
 */
export function redisLimiter(redis: IORedis, prefix = 'store:rl:bucket'): Limiter {
	const { Ratelimit } = upstash()
	const limiters = new Map<string, Ratelimit>()
	const client = upstashClient(redis) as unknown as ConstructorParameters<typeof Ratelimit>[0]['redis']
	return {
		async check(key, rule) {
			const id = `${rule.limit}/${rule.windowSeconds}`
			let limiter = limiters.get(id)
			if (!limiter) {
				limiter = new Ratelimit({
					redis: client,
					limiter: Ratelimit.tokenBucket(rule.limit, `${rule.windowSeconds} s`, rule.limit),
					prefix,
					ephemeralCache: false,
					analytics: false,
				})
				limiters.set(id, limiter)
			}
			const result = await limiter.limit(key)
			return { success: result.success, limit: result.limit, remaining: Math.max(0, result.remaining), resetMs: result.reset, source: 'redis' }
		},
	}
}

/**
 * Fixed windows in Redis that can be cleared by key: sign-in failures per account and client
 * (docs/decisions/031-sign-in-lockout.md). @upstash/ratelimit's own reset SCANs the whole
 * keyspace with a glob built from the key, too costly for every successful sign-in; here a
 * reset is one DEL. INCR and the window's expiry happen in one script, so a key never lives
 * without its expiry.
 */
const COUNT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`

/** One count back, only while the window's key exists (a DECR would create a key without expiry). */
const REFUND_SCRIPT = `if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then return redis.call('DECR', KEYS[1]) end
return 0`

export function redisCounter(redis: IORedis, prefix = 'store:rl:count'): Limiter {
	const counting = redis as IORedis & {
		storeCount(key: string, windowMs: number): Promise<[number, number]>
		storeRefund(key: string): Promise<number>
	}
	if (!('storeCount' in redis)) redis.defineCommand('storeCount', { numberOfKeys: 1, lua: COUNT_SCRIPT })
	if (!('storeRefund' in redis)) redis.defineCommand('storeRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT })
	return {
		async check(key, rule) {
			const [count, ttlMs] = await counting.storeCount(`${prefix}:${key}`, rule.windowSeconds * 1000)
			return {
				success: count <= rule.limit,
				limit: rule.limit,
				remaining: Math.max(0, rule.limit - count),
				resetMs: Date.now() + Math.max(0, ttlMs),
				source: 'redis',
			}
		},
		async reset(key) {
			await redis.del(`${prefix}:${key}`)
		},
		async refund(key) {
			await counting.storeRefund(`${prefix}:${key}`)
		},
	}
}

export class LimiterUnavailableError extends Error {
	override name = 'LimiterUnavailableError'
}

/** What the resilient wrapper needs to know about Redis (app/data/redis-health.server.ts). */
export type Availability = Pick<RedisHealth, 'state' | 'settled' | 'onLost' | 'failed'> & { deadlineMs?: number }

const LOST = Symbol('redis lost')

/**
 * The outage policy (docs/decisions/017-rate-limits.md, [R54]): while Redis is unavailable,
 * General falls back to the in-memory limiter and the other classes fail closed (the caller
 * answers 503 with Retry-After). Redis is not asked at all while `health` says it is down, and
 * a command in flight is dropped the moment it is found down, so nothing waits on it; the
 * health probe, not a request, finds out when it is back.
 */
export function resilientLimiter({ primary, fallback, health }: { primary: Limiter; fallback: Limiter; health: Availability }) {
	const fromPrimary = (key: string, rule: Rule) =>
		new Promise<Decision | typeof LOST>((resolve, reject) => {
			const stop = health.onLost(() => resolve(LOST))
			// [R123] A request already waiting when Redis hangs is released at the PING's own
			// deadline (free loop time), not ioredis's command timeout, which is only a backstop.
			const asked = primary.check(key, rule)
			const answer = health.deadlineMs === undefined ? asked : withinFreeTime(asked, health.deadlineMs)
			answer.then(
				(decision) => (stop(), resolve(decision)),
				(error: unknown) => (stop(), reject(error)),
			)
		})
	return {
		async check(key: string, rule: Rule, { failOpen }: { failOpen: boolean }): Promise<Decision> {
			if (health.state === 'starting') await health.settled
			if (health.state === 'up') {
				try {
					const decision = await fromPrimary(key, rule)
					if (decision !== LOST) return decision
				} catch (error) {
					health.failed((error as Error).message?.slice(0, 120) ?? 'command failed')
				}
			}
			if (failOpen) return fallback.check(key, rule)
			throw new LimiterUnavailableError('rate limiter unavailable')
		},
		/** Best effort: a count Redis could not clear expires with its window. */
		async reset(key: string) {
			await fallback.reset?.(key)
			if (health.state !== 'up') return
			await primary.reset?.(key).catch((error: unknown) => health.failed((error as Error).message?.slice(0, 120) ?? 'command failed'))
		},
		/** Best effort, as reset: a count Redis could not give back expires with its window. */
		async refund(key: string) {
			await fallback.refund?.(key)
			if (health.state !== 'up') return
			await primary.refund?.(key).catch((error: unknown) => health.failed((error as Error).message?.slice(0, 120) ?? 'command failed'))
		},
	}
}
