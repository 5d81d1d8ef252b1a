import { type Db, engineOf } from '../data/db.server'
import { StoreBusyError } from '../errors.server'

/**
 * Checkout is the store's hot write path: many shoppers, one order-number counter, the same
 * popular rows. What may go wrong there only because others were writing at the same moment
 * is retried a few times; what still fails becomes a 503 the shopper can act on, never a 500
 * (docs/decisions/030). Kept beside checkout while it is the only caller.
 */

/**
 * Prisma's codes for "someone else held what we needed": P2034 write conflict or deadlock
 * (PostgreSQL 40001 / 40P01), P2028 a transaction that could not start in time (pool or, on
 * SQLite, the single connection's queue) or outlived its timeout, P1008 SQLite's busy
 * database, P2037 a server out of connections.
 */
const CONTENDED_CODES = new Set(['P2034', 'P2028', 'P1008', 'P2037'])
/**
 * SQLite's own codes, which the driver adapter passes through when two processes share the file
 * (a second server, `npm run init` while serving): the file is locked past busy_timeout, or a
 * transaction that read must not write because another process committed since (WAL snapshot).
 */
const SQLITE_CONTENDED = /^SQLITE_(BUSY|LOCKED)(_|$)/
/** PostgreSQL states Prisma passes through without a code of its own: 55P03 is our lock_timeout. */
const CONTENDED_STATES = new Set(['55P03', '40001', '40P01'])

type DriverCause = { kind?: string; code?: string; originalCode?: string }

export function isContention(error: unknown): boolean {
	const e = error as { code?: unknown; cause?: DriverCause; meta?: { driverAdapterError?: { cause?: DriverCause } } } | null
	if (typeof e?.code === 'string' && (CONTENDED_CODES.has(e.code) || SQLITE_CONTENDED.test(e.code))) return true
	const cause = e?.cause ?? e?.meta?.driverAdapterError?.cause
	const state = cause?.code ?? cause?.originalCode
	return typeof state === 'string' && CONTENDED_STATES.has(state)
}

/**
 * How long checkout waits, and how often it tries again. A lock normally clears in
 * milliseconds (checkout holds the counter for three statements); one held for seconds is
 * someone else's long transaction, and the shopper hears so instead of watching a spinner.
 */
export const CHECKOUT_CONTENTION = {
	attempts: 5,
	/** No new attempt starts this long after the first one began. */
	windowMs: 4_000,
	/** Each statement waits at most this long for a row lock (PostgreSQL's lock_timeout). */
	lockTimeoutMs: 2_000,
	/** Prisma's interactive transaction: waiting for a connection, and running. */
	transaction: { maxWait: 5_000, timeout: 10_000 },
}

/** Bounds every lock wait of the current transaction (PostgreSQL; SQLite has its busy_timeout). */
export async function limitLockWaits(db: Db, tx: Pick<Db, '$executeRawUnsafe'>) {
	if (engineOf(db) !== 'postgresql') return
	await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.trunc(CHECKOUT_CONTENTION.lockTimeoutMs)}`)
}

/**
 * Runs `attempt` again after a short, growing, jittered pause while it fails from contention,
 * within the attempts and window above; then throws StoreBusyError. Other errors pass through.
 */
export async function retryOnContention<T>(
	attempt: () => Promise<T>,
	policy: typeof CHECKOUT_CONTENTION & { busyMessage?: string } = CHECKOUT_CONTENTION,
): Promise<T> {
	const started = Date.now()
	for (let tried = 1; ; tried++) {
		try {
			return await attempt()
		} catch (error) {
			if (!isContention(error)) throw error
			if (tried >= policy.attempts || Date.now() - started >= policy.windowMs) throw new StoreBusyError(policy.busyMessage)
		}
		const pause = 25 * 2 ** tried * (0.5 + Math.random())
		await new Promise((resolve) => setTimeout(resolve, pause))
	}
}
