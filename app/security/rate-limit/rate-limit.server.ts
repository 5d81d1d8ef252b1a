import type IORedis from 'ioredis'
import { createContext, data, type RouterContext, type RouterContextProvider } from 'react-router'
import type { Config } from '../../config/env.server'
import { redisClient } from '../../data/invalidation.server'
import { type ProbeOptions, type RedisHealth, type RedisState, watchRedis } from '../../data/redis-health.server'
import { formFailure } from '../form.server'
import type { RouteClass } from './classes'
import { type Decision, LimiterUnavailableError, memoryLimiter, type Rule, redisCounter, redisLimiter, resilientLimiter } from './limiter.server'
import { log as logger } from '../../log/logger.server'

/**
 * Counters keyed by an account (or a browser), not by a request's route: each can be cleared or
 * given back one count, and under REDIS_URL they fail closed like Authentication [R54].
 * `account`: sign-in failures per account and client address [R53]; `newDevices`: per account
 * from every browser it has not signed in from before, `device`: per browser that has [R55];
 * `passwordReset`: reset mails per address [R28].
 */
export type AccountCounter = 'account' | 'newDevices' | 'device' | 'passwordReset'
const ACCOUNT_COUNTERS: ReadonlySet<string> = new Set<AccountCounter>(['account', 'newDevices', 'device', 'passwordReset'])

export type RateLimits = Record<RouteClass | AccountCounter, Rule>

/**
 * The store's limiter (docs/decisions/017-rate-limits.md): in memory by default, Redis when
 * REDIS_URL is set. One instance per process, shared by the Express middleware
 * (server/server.ts) and the app build (per-account sign-in limits), hence kept on globalThis.
 */
export type StoreLimiter = {
	rules: RateLimits
	/** Counts one request of `key` against `rule`; null means limiting is switched off. */
	check(key: string, routeClass: RouteClass | AccountCounter): Promise<Decision | 'unavailable' | null>
	/** Clears `key`'s count: a sign-in that succeeded clears that client's failures [R53]. */
	reset(key: string, counter: AccountCounter): Promise<void>
	/** Gives back one count of `key`: an attempt counted before it was checked turned out no failure [R55]. */
	refund(key: string, counter: AccountCounter): Promise<void>
	/** Redis as the background probe last found it; undefined without REDIS_URL. */
	readonly redis: RedisState | undefined
	close(): Promise<void>
}

/** For tests and the fault bench; the defaults are the store's. */
export type LimiterOptions = { commandTimeoutMs?: number; probe?: ProbeOptions }

const globalForLimiter = globalThis as unknown as { storeLimiter?: StoreLimiter; storeRateContext?: RouterContext<RateContext> }

export function createStoreLimiter(
	config: Pick<Config, 'rateLimits' | 'redisUrl'>,
	log: (message: string) => void = (line) => logger.warn(line),
	{ commandTimeoutMs = 10_000, probe }: LimiterOptions = {},
): StoreLimiter {
	const rules = config.rateLimits.rules
	const memory = memoryLimiter()
	let redis: IORedis | undefined
	let health: RedisHealth | undefined
	let classes: ReturnType<typeof resilientLimiter> | undefined
	let accounts: ReturnType<typeof resilientLimiter> | undefined
	if (config.redisUrl) {
		redis = redisClient(config.redisUrl, {
			// Nothing is queued for a Redis that is not connected. The command timeout is only a
			// backstop that frees a lost command: its timer counts the time this process's own
			// event loop was busy, and fired on healthy Redis under load. A request is released
			// at the health deadline instead (free loop time, resilientLimiter) [R123].
			enableOfflineQueue: false,
			maxRetriesPerRequest: 0,
			commandTimeout: commandTimeoutMs,
			connectTimeout: 1_000,
			retryStrategy: (times) => Math.min(times * 200, 2_000),
		})
		redis.on('error', () => undefined)
		health = watchRedis(redis, probe)
		health.onChange((state, previous, reason) => {
			if (state === 'down') {
				log(`[rate-limit] Redis unavailable (${reason}): General falls back to memory; Authentication, Sensitive and Admin answer 503 until it is back.`)
			} else if (previous === 'down') {
				log('[rate-limit] Redis is answering again: shared limits restored.')
			}
		})
		classes = resilientLimiter({ primary: redisLimiter(redis), fallback: memory, health })
		accounts = resilientLimiter({ primary: redisCounter(redis), fallback: memory, health })
	}
	return {
		rules,
		async check(key, routeClass) {
			if (!config.rateLimits.enabled) return null
			const rule = rules[routeClass]
			const shared = ACCOUNT_COUNTERS.has(routeClass) ? accounts : classes
			if (!shared) return memory.check(`${routeClass}:${key}`, rule)
			try {
				return await shared.check(`${routeClass}:${key}`, rule, { failOpen: routeClass === 'general' })
			} catch (error) {
				if (error instanceof LimiterUnavailableError) return 'unavailable'
				throw error
			}
		},
		async reset(key, counter) {
			if (!config.rateLimits.enabled) return
			await (accounts ?? memory).reset?.(`${counter}:${key}`)
		},
		async refund(key, counter) {
			if (!config.rateLimits.enabled) return
			await (accounts ?? memory).refund?.(`${counter}:${key}`)
		},
		get redis() {
			return health?.state
		},
		async close() {
			health?.stop()
			redis?.disconnect()
		},
	}
}

export function getStoreLimiter(config: Pick<Config, 'rateLimits' | 'redisUrl'>): StoreLimiter {
	globalForLimiter.storeLimiter ??= createStoreLimiter(config)
	return globalForLimiter.storeLimiter
}

/**
 * What the middleware found for a form page's write it did not answer itself: the refusing
 * decision, or `unavailable` (Redis is down and the class fails closed). The action renders
 * it beside its form before doing anything else.
 */
export type RateContext = Decision | 'unavailable' | null
globalForLimiter.storeRateContext ??= createContext<RateContext>(null)
export const rateLimitContext = globalForLimiter.storeRateContext

/** The 503 of a class that fails closed while Redis is unavailable [R54]. */
export const UNAVAILABLE = {
	headers: { 'Retry-After': '5' },
	message: 'This is briefly unavailable. Please try again in a few seconds.',
} as const

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
 * exceeded (the action then does nothing else), or null. `extra` rides along (a form's echoed
 * values, so the page comes back with what was typed) [R127].
 */
export function rateLimitedForm<Extra extends object = Record<never, never>>(context: Readonly<RouterContextProvider>, extra: Extra = {} as Extra) {
	const decision = context.get(rateLimitContext)
	const refusal = (message: string) => ({ ...formFailure({}, message), ...extra })
	if (decision === 'unavailable') return data(refusal(UNAVAILABLE.message), { status: 503, headers: UNAVAILABLE.headers })
	if (!decision || decision.success) return null
	return data(refusal(tooManyMessage(decision)), { status: 429, headers: rateLimitHeaders(decision) })
}

/** The headers a refusal carries: Retry-After and X-RateLimit-*, once each [R51]. */
export const REFUSAL_HEADERS = ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const

/**
 * A form route's `headers` export: React Router passes an action's headers to the page only
 * through it, so a refusal the action made itself (the per-account sign-in limit) reaches the
 * browser with its own window's Retry-After and X-RateLimit-Reset (the middleware then leaves
 * out the class's).
 */
export function refusalHeaders({ actionHeaders, parentHeaders }: { actionHeaders: Headers; parentHeaders: Headers }) {
	const headers = new Headers(parentHeaders)
	for (const name of REFUSAL_HEADERS) {
		const value = actionHeaders.get(name)
		if (value !== null) headers.set(name, value)
	}
	return headers
}
