import type IORedis from 'ioredis'
import type { Config } from '../config/env.server'
import { databaseProvider } from '../config/database-url'
import { onFirstUse } from '../config/optional-packages.server'
import { type Db, getDb } from '../data/db.server'
import { redisClient } from '../data/invalidation.server'
import { s3BucketCheck } from '../uploads/storage/s3.server'
import { log as logger } from '../log/logger.server'

// Loaded only by a store on PostgreSQL, as its driver adapter is.
const postgresDriver = onFirstUse<typeof import('pg')>('pg')
import { NoAnswer, withinFreeTime } from '../data/event-loop.server'

/**
 * [R81] Readiness: whether this instance's dependencies answer, so a load balancer sends
 * shoppers only to an instance that can serve them. Liveness (/healthz) is the other question.
 */
export type CheckResult = 'ok' | 'down'
export type Readiness = { status: 'ready' | 'unavailable'; checks: Record<string, CheckResult> }
/** Asks one dependency a trivial question; rejects when it cannot answer. */
export type Check = (signal: AbortSignal) => Promise<unknown>

/**
 * One dependency's check that never hangs: it gives up after `timeoutMs` of time the event loop
 * was free (a busy store does not blame a dependency for its own delay [R123]) and aborts what
 * can be aborted; while an earlier attempt is still stuck on a hung dependency (a PostgreSQL
 * that accepts no connections, a stopped Redis) no new attempt starts, so a probe storm cannot
 * pile connections onto it: it is down until that attempt ends.
 */
export function boundedCheck(check: Check, timeoutMs: number) {
	let stuck: Promise<unknown> | undefined
	return async (): Promise<{ result: CheckResult; reason?: string }> => {
		if (stuck) return { result: 'down', reason: `an earlier check has not answered after ${timeoutMs} ms` }
		const controller = new AbortController()
		const attempt = Promise.resolve().then(() => check(controller.signal))
		try {
			await withinFreeTime(attempt, timeoutMs)
			return { result: 'ok' }
		} catch (error) {
			if (error instanceof NoAnswer) {
				controller.abort()
				stuck = attempt
				const clear = () => {
					stuck = undefined
				}
				attempt.then(clear, clear)
			}
			return { result: 'down', reason: reasonOf(error) }
		}
	}
}

/** A short, single-line reason for the log: an error code or name, never a connection string. */
function reasonOf(error: unknown) {
	if (error instanceof NoAnswer) return error.message
	const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown }
	return String(typeof code === 'string' ? code : typeof name === 'string' ? name : 'error').slice(0, 80)
}

/**
 * The dependencies' verdict, kept current in the background: every check runs each
 * `intervalMs` (every `retryMs` while one is failing but not yet judged down), and /readyz
 * answers the latest verdict at once, so a probe storm asks each dependency about once per
 * interval and a balancer's probe never waits on a dependency.
 *
 * [R123] A dependency turns down only after `failuresToDown` failed checks in a row and up
 * again only after `successesToUp` answered in a row: one slow or lost answer does not take a
 * healthy instance out of rotation, and an outage changes readiness once each way. The first
 * check at start decides at once (there is no earlier state to keep). A change is logged once.
 */
export function readinessProbe({
	checks,
	// Free loop time (R123), as the Redis PING: with three in a row, a hung dependency is down within about 2 s.
	timeoutMs = 500,
	intervalMs = 1_000,
	retryMs = 250,
	failuresToDown = 3,
	successesToUp = 2,
	log = (line) => logger.warn(line),
}: {
	checks: Record<string, Check>
	timeoutMs?: number
	intervalMs?: number
	retryMs?: number
	failuresToDown?: number
	successesToUp?: number
	log?: (line: string) => void
}) {
	type Dependency = { name: string; run: ReturnType<typeof boundedCheck>; result?: CheckResult; failures: number; successes: number }
	const judged: Dependency[] = Object.entries(checks).map(([name, check]) => ({ name, run: boundedCheck(check, timeoutMs), failures: 0, successes: 0 }))
	let round: Promise<void> | undefined
	let timer: NodeJS.Timeout | undefined
	let stopped = false

	async function checkAll() {
		await Promise.all(
			judged.map(async (dependency) => {
				const { result, reason } = await dependency.run()
				if (result === 'ok') {
					dependency.failures = 0
					dependency.successes++
				} else {
					dependency.successes = 0
					dependency.failures++
				}
				const runLength = result === 'ok' ? dependency.successes : dependency.failures
				const decides = dependency.result === undefined || runLength >= (result === 'ok' ? successesToUp : failuresToDown)
				if (!decides || result === dependency.result) return
				if (dependency.result !== undefined || result === 'down') {
					const times = dependency.failures > 1 ? `, ${dependency.failures} checks in a row` : ''
					log(result === 'down' ? `[readyz] ${dependency.name} is down (${reason}${times})` : `[readyz] ${dependency.name} answers again`)
				}
				dependency.result = result
			}),
		)
	}
	const schedule = () => {
		if (stopped) return
		const unsure = judged.some(
			(dependency) => (dependency.result === 'ok' && dependency.failures > 0) || (dependency.result === 'down' && dependency.successes > 0),
		)
		timer = setTimeout(() => (round = checkAll().then(schedule)), unsure ? retryMs : intervalMs)
		timer.unref()
	}
	const verdict = (): Readiness => {
		const readiness: Readiness = { status: 'ready', checks: {} }
		for (const { name, result = 'ok' } of judged) {
			readiness.checks[name] = result
			if (result === 'down') readiness.status = 'unavailable'
		}
		return readiness
	}

	return Object.assign(
		async (): Promise<Readiness> => {
			if (!round) {
				round = checkAll()
				void round.then(schedule)
			}
			// Only the requests before the first verdict wait for it.
			if (judged.some((dependency) => dependency.result === undefined)) await round
			return verdict()
		},
		{
			stop() {
				stopped = true
				clearTimeout(timer)
			},
		},
	)
}

/** A trivial query on the store's own client: for SQLite, a file this process opens itself. */
export const databaseCheck =
	(db: () => Db): Check =>
	() =>
		db().$queryRaw`SELECT 1`

/** Backstop of a check's own connection: the deadline (free loop time) is boundedCheck's [R123]. */
const BACKSTOP_MS = 10_000

/**
 * A `SELECT 1` on a PostgreSQL connection of its own [R123]: through the store's pool it waited
 * behind every request for a free connection, and a busy store took that queue for a database
 * that does not answer. A failed or abandoned connection is dropped and the next check opens anew.
 */
export function postgresCheck(url: string): Check & { close(): void } {
	let client: import('pg').Client | undefined
	const drop = () => {
		void client?.end().catch(() => undefined)
		client = undefined
	}
	const check = async (signal: AbortSignal) => {
		if (!client) {
			const { Client } = postgresDriver()
			const opened = new Client({ connectionString: url, connectionTimeoutMillis: BACKSTOP_MS, query_timeout: BACKSTOP_MS })
			opened.on('error', () => client === opened && drop())
			client = opened
			await opened.connect().catch((error: unknown) => {
				if (client === opened) client = undefined
				throw error
			})
		}
		const asked = client
		signal.addEventListener('abort', () => client === asked && drop(), { once: true })
		await asked.query('SELECT 1').catch((error: unknown) => {
			if (client === asked) drop()
			throw error
		})
	}
	return Object.assign(check, { close: drop })
}

/** Resolves once `client` is ready, rejects with the error of a failed attempt to connect. */
function connected(client: IORedis) {
	return new Promise<void>((resolve, reject) => {
		const settle = (error?: Error) => {
			client.off('ready', onReady)
			client.off('error', onError)
			if (error) reject(error)
			else resolve()
		}
		const onReady = () => settle()
		const onError = (error: Error) => settle(error)
		client.once('ready', onReady)
		client.once('error', onError)
	})
}

/** A PING on a connection of its own, so readiness sees Redis as it is, not as another client's state. */
export function redisCheck(url: string): Check & { close(): void } {
	let client: IORedis | undefined
	const check = async () => {
		if (!client) {
			// The timeouts are backstops: the deadline, in free loop time, is boundedCheck's [R123].
			client = redisClient(url, {
				connectTimeout: BACKSTOP_MS,
				commandTimeout: BACKSTOP_MS,
				// A PING while disconnected fails at once (a refusal), instead of waiting to reconnect.
				enableOfflineQueue: false,
				maxRetriesPerRequest: 0,
				retryStrategy: (times) => Math.min(times * 200, 2_000),
			})
			client.on('error', () => undefined)
		}
		// A new client is still connecting: without the offline queue its first PING would fail at
		// once, and the first check (which decides at once) would call a healthy Redis down. Wait
		// for the connection (or its failure); the deadline still bounds the wait.
		if (client.status === 'wait' || client.status === 'connecting' || client.status === 'connect') await connected(client)
		await client.ping()
	}
	return Object.assign(check, { close: () => client?.disconnect() })
}

/** The dependencies this configuration uses: the database always, Redis and an S3 bucket when configured. */
export function dependencyChecks(config: Config): Record<string, Check> {
	const checks: Record<string, Check> = {
		database: databaseProvider(config.databaseUrl) === 'postgresql' ? postgresCheck(config.databaseUrl) : databaseCheck(getDb),
	}
	if (config.redisUrl) checks.redis = redisCheck(config.redisUrl)
	const { bucket, ...s3 } = config.uploads.s3
	if (config.uploads.storage === 's3' && bucket) checks.objectStore = s3BucketCheck({ bucket, ...s3 })
	return checks
}
