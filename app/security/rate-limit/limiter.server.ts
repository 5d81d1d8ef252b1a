import { createHash } from 'node:crypto'
import type { Ratelimit } from '@upstash/ratelimit'
import type IORedis from 'ioredis'
import { onFirstUse } from '../../config/optional-packages.server'

/** Loaded by a store with REDIS_URL only (issue 11): the in-memory limiter does not need it. */
const upstash = onFirstUse<typeof import('@upstash/ratelimit')>('@upstash/ratelimit')

/** One decision: the spec's 429 contract is built from it (limit, remaining, reset). */
export type Decision = { success: boolean; limit: number; remaining: number; resetMs: number }

export type Rule = { limit: number; windowSeconds: number }

export interface Limiter {
	check(key: string, rule: Rule): Promise<Decision>
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
			return { success: window.count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - window.count), resetMs: window.resetMs }
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

/** Redis-backed sliding windows through @upstash/ratelimit (one Ratelimit per rule). */
export function redisLimiter(redis: IORedis, prefix = 'store:rl'): Limiter {
	const { Ratelimit } = upstash()
	const limiters = new Map<string, Ratelimit>()
	const client = upstashClient(redis) as unknown as ConstructorParameters<typeof Ratelimit>[0]['redis']
	return {
		async check(key, rule) {
			const id = `${rule.limit}/${rule.windowSeconds}`
			let limiter = limiters.get(id)
			if (!limiter) {
				limiter = new Ratelimit({ redis: client, limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowSeconds} s`), prefix, ephemeralCache: false, analytics: false })
				limiters.set(id, limiter)
			}
			const result = await limiter.limit(key)
			return { success: result.success, limit: result.limit, remaining: Math.max(0, result.remaining), resetMs: result.reset }
		},
	}
}

export class LimiterUnavailableError extends Error {
	override name = 'LimiterUnavailableError'
}

/**
 * The outage policy (docs/decisions/017-rate-limits.md): when Redis does not answer,
 * General falls back to the in-memory limiter and the other classes fail closed (the caller
 * answers 503 with Retry-After). Logged once per outage; recovery is automatic.
 */
export function resilientLimiter({ primary, fallback, log = console.warn }: { primary: Limiter; fallback: Limiter; log?: (message: string) => void }) {
	let down = false
	return {
		async check(key: string, rule: Rule, { failOpen }: { failOpen: boolean }): Promise<Decision> {
			try {
				const decision = await primary.check(key, rule)
				if (down) {
					down = false
					log('[rate-limit] Redis is answering again: shared limits restored.')
				}
				return decision
			} catch (error) {
				if (!down) {
					down = true
					log(`[rate-limit] Redis unavailable (${(error as Error).message?.slice(0, 120)}): General falls back to memory; Authentication, Sensitive and Admin answer 503 until it is back.`)
				}
				if (failOpen) return fallback.check(key, rule)
				throw new LimiterUnavailableError('rate limiter unavailable')
			}
		},
		get down() {
			return down
		},
	}
}
