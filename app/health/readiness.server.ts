import type IORedis from 'ioredis'
import type { Config } from '../config/env.server'
import { type Db, getDb } from '../data/db.server'
import { redisClient } from '../data/invalidation.server'
import { s3BucketCheck } from '../uploads/storage/s3.server'
import { log as logger } from '../log/logger.server'

/**
 * [R81] Readiness: whether this instance's dependencies answer, so a load balancer sends
 * shoppers only to an instance that can serve them. Liveness (/healthz) is the other question.
 */
export type CheckResult = 'ok' | 'down'
export type Readiness = { status: 'ready' | 'unavailable'; checks: Record<string, CheckResult> }
/** Asks one dependency a trivial question; rejects when it cannot answer. */
export type Check = (signal: AbortSignal) => Promise<unknown>

class CheckTimeout extends Error {
	override name = 'CheckTimeout'
}

/**
 * One dependency's check that never hangs: it gives up after `timeoutMs` (and aborts what can be
 * aborted), and while an earlier attempt is still stuck on a hung dependency (a PostgreSQL that
 * accepts no connections, a stopped Redis) no new attempt starts, so a probe storm cannot pile
 * connections onto it: it is down until that attempt ends.
 */
export function boundedCheck(check: Check, timeoutMs: number) {
	let stuck: Promise<unknown> | undefined
	return async (): Promise<{ result: CheckResult; reason?: string }> => {
		if (stuck) return { result: 'down', reason: `an earlier check has not answered after ${timeoutMs} ms` }
		const controller = new AbortController()
		let timer: NodeJS.Timeout | undefined
		const attempt = Promise.resolve().then(() => check(controller.signal))
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs)
		})
		try {
			await Promise.race([attempt, timeout])
			return { result: 'ok' }
		} catch (error) {
			if (error instanceof CheckTimeout) {
				controller.abort()
				stuck = attempt
				const clear = () => {
					stuck = undefined
				}
				attempt.then(clear, clear)
			}
			return { result: 'down', reason: reasonOf(error) }
		} finally {
			clearTimeout(timer)
		}
	}
}

/** A short, single-line reason for the log: an error code or name, never a connection string. */
function reasonOf(error: unknown) {
	if (error instanceof CheckTimeout) return error.message
	const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown }
	return String(typeof code === 'string' ? code : typeof name === 'string' ? name : 'error').slice(0, 80)
}

/**
 * All checks at once, each bounded; the answer is kept for `memoMs` after it arrives and shared
 * by the requests that come meanwhile: a probe storm asks each dependency about once per
 * `memoMs`, and the answer is never older than that. A change of state is logged once.
 */
export function readinessProbe({
	checks,
	timeoutMs = 1_000,
	memoMs = 1_000,
	log = (line) => logger.warn(line),
}: {
	checks: Record<string, Check>
	timeoutMs?: number
	memoMs?: number
	log?: (line: string) => void
}) {
	const bounded = Object.entries(checks).map(([name, check]) => [name, boundedCheck(check, timeoutMs)] as const)
	const previous = new Map<string, CheckResult>()
	let current: Promise<Readiness> | undefined
	let answeredAt = 0

	async function probe(): Promise<Readiness> {
		const results = await Promise.all(bounded.map(async ([name, run]) => [name, await run()] as const))
		const readiness: Readiness = { status: 'ready', checks: {} }
		for (const [name, { result, reason }] of results) {
			readiness.checks[name] = result
			if (result === 'down') readiness.status = 'unavailable'
			if (result !== (previous.get(name) ?? 'ok')) {
				log(result === 'down' ? `[readyz] ${name} is down (${reason})` : `[readyz] ${name} answers again`)
			}
			previous.set(name, result)
		}
		answeredAt = Date.now()
		return readiness
	}

	return (): Promise<Readiness> => {
		if (!current || (answeredAt !== 0 && Date.now() - answeredAt >= memoMs)) {
			answeredAt = 0
			current = probe()
		}
		return current
	}
}

/** A trivial query on the store's own client (its pool), the path every page takes to the data. */
export const databaseCheck =
	(db: () => Db): Check =>
	() =>
		db().$queryRaw`SELECT 1`

/** A PING on a connection of its own, so readiness sees Redis as it is, not as another client's state. */
export function redisCheck(url: string, timeoutMs: number): Check & { close(): void } {
	let client: IORedis | undefined
	const check = async () => {
		if (!client) {
			client = redisClient(url, {
				connectTimeout: timeoutMs,
				commandTimeout: timeoutMs,
				maxRetriesPerRequest: 0,
				retryStrategy: (times) => Math.min(times * 200, 2_000),
			})
			client.on('error', () => undefined)
		}
		await client.ping()
	}
	return Object.assign(check, { close: () => client?.disconnect() })
}

/** The dependencies this configuration uses: the database always, Redis and an S3 bucket when configured. */
export function dependencyChecks(config: Config, timeoutMs = 1_000): Record<string, Check> {
	const checks: Record<string, Check> = { database: databaseCheck(getDb) }
	if (config.redisUrl) checks.redis = redisCheck(config.redisUrl, timeoutMs)
	const { bucket, ...s3 } = config.uploads.s3
	if (config.uploads.storage === 's3' && bucket) checks.objectStore = s3BucketCheck({ bucket, ...s3 })
	return checks
}
