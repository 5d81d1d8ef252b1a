import type IORedis from 'ioredis'
import { createContext, data, type RouterContext, type RouterContextProvider } from 'react-router'
import type { Config } from '../../config/env.server'
import { redisClient } from '../../data/invalidation.server'
import { formFailure } from '../form.server'
import type { RouteClass } from './classes'
import { type Decision, LimiterUnavailableError, type Limiter, memoryLimiter, type Rule, redisLimiter, resilientLimiter } from './limiter.server'

export type RateLimits = Record<RouteClass | 'account', Rule>

/**
 * The store's limiter (spec 8, issue 7): in memory by default, Redis when REDIS_URL is set.
 * One instance per process, shared by the Express middleware (scripts/server.ts) and the app
 * build (per-account sign-in limits), hence kept on globalThis.
 */
export type StoreLimiter = {
	rules: RateLimits
	/** Counts one request of `key` against `rule`; null means limiting is switched off. */
	check(key: string, routeClass: RouteClass | 'account'): Promise<Decision | 'unavailable' | null>
	close(): Promise<void>
}

const globalForLimiter = globalThis as unknown as { storeLimiter?: StoreLimiter; storeRateContext?: RouterContext<Decision | null> }

export function createStoreLimiter(config: Pick<Config, 'rateLimits' | 'redisUrl'>, log?: (message: string) => void): StoreLimiter {
	const rules = config.rateLimits.rules
	const memory = memoryLimiter()
	let redis: IORedis | undefined
	let shared: ReturnType<typeof resilientLimiter> | undefined
	if (config.redisUrl) {
		redis = redisClient(config.redisUrl, {
			// Answer fast or not at all: a request never waits on a Redis that is gone.
			enableOfflineQueue: false,
			maxRetriesPerRequest: 0,
			commandTimeout: 500,
			connectTimeout: 1_000,
			lazyConnect: false,
			retryStrategy: (times) => Math.min(times * 200, 2_000),
		})
		redis.on('error', () => undefined)
		const connection = redis
		let everReady = false
		connection.on('ready', () => (everReady = true))
		// At start, wait briefly for the first connection; after that, a lost connection fails fast.
		const ready = async () => {
			if (connection.status === 'ready') return
			if (everReady) throw new Error('the Redis connection is down')
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error('no Redis connection within 1 s')), 1_000)
				connection.once('ready', () => {
					clearTimeout(timer)
					resolve()
				})
			})
		}
		const redisLimits = redisLimiter(connection)
		shared = resilientLimiter({
			primary: { check: async (key, rule) => (await ready(), redisLimits.check(key, rule)) },
			fallback: memory,
			log,
		})
	}
	const limiter: Limiter = memory
	return {
		rules,
		async check(key, routeClass) {
			if (!config.rateLimits.enabled) return null
			const rule = rules[routeClass]
			if (!shared) return limiter.check(`${routeClass}:${key}`, rule)
			try {
				return await shared.check(`${routeClass}:${key}`, rule, { failOpen: routeClass === 'general' })
			} catch (error) {
				if (error instanceof LimiterUnavailableError) return 'unavailable'
				throw error
			}
		},
		async close() {
			redis?.disconnect()
		},
	}
}

export function getStoreLimiter(config: Pick<Config, 'rateLimits' | 'redisUrl'>): StoreLimiter {
	globalForLimiter.storeLimiter ??= createStoreLimiter(config)
	return globalForLimiter.storeLimiter
}

/** The decision the middleware made for this request, handed to form actions. */
globalForLimiter.storeRateContext ??= createContext<Decision | null>(null)
export const rateLimitContext = globalForLimiter.storeRateContext

/** Seconds until `resetMs`, at least 1. */
export const retryAfterSeconds = (resetMs: number, now = Date.now()) => Math.max(1, Math.ceil((resetMs - now) / 1000))

/** The spec's headers for a request of a limited class (429 or not). X-RateLimit-Reset: Unix seconds. */
export function rateLimitHeaders(decision: Decision, now = Date.now()): Record<string, string> {
	const headers: Record<string, string> = {
		'X-RateLimit-Limit': String(decision.limit),
		'X-RateLimit-Remaining': String(decision.remaining),
		'X-RateLimit-Reset': String(Math.ceil(decision.resetMs / 1000)),
	}
	if (!decision.success) headers['Retry-After'] = String(retryAfterSeconds(decision.resetMs, now))
	return headers
}

export function tooManyMessage(decision: Decision) {
	const seconds = retryAfterSeconds(decision.resetMs)
	return `Too many attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
}

/**
 * For form pages: the 429 to render beside the form when the middleware found the limit
 * exceeded (the action then does nothing else), or null.
 */
export function rateLimitedForm(context: Readonly<RouterContextProvider>) {
	const decision = context.get(rateLimitContext)
	if (!decision || decision.success) return null
	return data(formFailure({}, tooManyMessage(decision)), { status: 429, headers: rateLimitHeaders(decision) })
}
