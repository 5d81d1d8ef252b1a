import type { Db } from '../../data/db.server'
import type { StoreScope } from '../../data/scope'
import { applyWithHeld, type EventConnection, lockConnection } from './apply.server'
import { parseEventBody } from './body'
import { RECEIVED } from './inbox.server'
import { normalizeFor } from './normalize'
import { isContention } from '../../orders/contention.server'
import { StoreBusyError } from '../../errors.server'

/** Events of one Connection applied in one transaction: a burst costs a few commits, not one each. */
export const APPLY_BATCH = 25
/** How often an idle worker looks for events kept by another instance (its own wake it at once). */
export const POLL_MS = 1_000
/** Failed attempts before an event that cannot be applied steps aside as `failed` (replayable). */
export const MAX_APPLY_ATTEMPTS = 5

type Logger = { warn: (line: string) => void; error: (line: string) => void }

type Options = { log?: Logger; /** Only this Connection's events (tests: a database shared by files running at once). */ connectionId?: string }

/**
 * Applies what the intake kept (inbox.server.ts, outcome `received`), oldest first, and records
 * each event's outcome in the transaction that applied it, so an event is applied exactly once
 * however many workers run and wherever one stops [R63, R64]: each batch first takes its
 * Connection's row lock (the same lock held and linking events take), then reads the events still
 * `received`, applies them in the order they arrived and records their outcomes. A second
 * worker (another instance) waits on the lock and then finds them applied; a worker killed mid-
 * batch leaves nothing (its transaction rolls back) and the events are applied by the next one.
 * Events of one Connection (so of one Order) are applied one after another, in arrival order;
 * the application itself makes any order end in the same state [R65].
 *
 * Returns how many events it applied, and whether one failed; 0 and false when none waits.
 */
export async function applyReceivedBatch(scope: StoreScope, { log, connectionId }: Options = {}): Promise<{ applied: number; failed: boolean }> {
	const { db, storeId } = scope
	// Another worker may apply the events this one found first: it looks again, a few times.
	for (let look = 0; look < 10; look++) {
		const next = await db.providerEvent.findFirst({
			where: { storeId, outcome: RECEIVED, ...(connectionId === undefined ? {} : { connectionId }) },
			orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
			select: { connection: { select: { id: true, storeId: true, provider: true } } },
		})
		if (!next) return { applied: 0, failed: false }
		const { connection } = next
		try {
			const applied = await applyBatch(scope, connection, APPLY_BATCH)
			if (applied > 0) return { applied, failed: false }
		} catch (error) {
			// The database's trouble, not the event's: everything waits, and the caller tries later.
			if (databaseTrouble(error)) throw error
			// One event that cannot be applied must not hold up the rest: its batch is retried one
			// event at a time, and the event that fails alone has its attempt counted.
			try {
				const applied = await applyBatch(scope, connection, 1)
				if (applied > 0) return { applied, failed: false }
			} catch (alone) {
				if (databaseTrouble(alone)) throw alone
				await countFailure(db, connection.id, alone, log)
				return { applied: 0, failed: true }
			}
		}
	}
	return { applied: 0, failed: false }
}

/**
 * Contention (a lock, a busy file, an Order that kept changing while it was decided on) or a
 * database out of reach (Prisma's P1xxx): no fault of the event's.
 */
function databaseTrouble(error: unknown) {
	const code = (error as { code?: unknown } | null)?.code
	return error instanceof StoreBusyError || isContention(error) || (typeof code === 'string' && /^P1\d{3}$/.test(code))
}

async function applyBatch(scope: StoreScope, connection: EventConnection, take: number) {
	return scope.db.$transaction(async (tx) => {
		await lockConnection(tx, connection.id)
		const rows = await tx.providerEvent.findMany({
			where: { connectionId: connection.id, outcome: RECEIVED },
			orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
			take,
			select: { id: true, payload: true },
		})
		for (const row of rows) {
			const applied = await applyWithHeld(tx, scope, connection, normalizeFor(connection.provider, parseEventBody(row.payload)))
			await tx.providerEvent.update({ where: { id: row.id }, data: applied, select: { id: true } })
		}
		return rows.length
	})
}

/** The oldest `received` event of a Connection failed to apply alone: one more attempt counted, and set aside once they run out. */
async function countFailure(db: Db, connectionId: string, error: unknown, log?: Logger) {
	const row = await db.providerEvent.findFirst({
		where: { connectionId, outcome: RECEIVED },
		orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
		select: { id: true, applyAttempts: true, providerEventId: true },
	})
	if (!row) return
	const attempts = row.applyAttempts + 1
	// Prisma's message opens with where it was called and ends with what the database said.
	const lines = (error instanceof Error ? error.message : String(error)).split('\n').filter((line) => line.trim())
	const reason = (lines.at(-1) ?? 'error').trim().slice(0, 200)
	const failed = attempts >= MAX_APPLY_ATTEMPTS
	await db.providerEvent.updateMany({
		where: { id: row.id, outcome: RECEIVED },
		data: failed
			? { applyAttempts: attempts, outcome: 'failed', summary: `Could not be applied (${reason}); nothing changed. Replay it once the cause is fixed.` }
			: { applyAttempts: attempts },
	})
	log?.error(`[events] event ${row.providerEventId} could not be applied (attempt ${attempts} of ${MAX_APPLY_ATTEMPTS}): ${reason}`)
}

/** Applies every event waiting now, batch after batch, until none waits or each left has failed its attempts (tests, diagnostics). */
export async function applyAllReceived(scope: StoreScope, options: Options = {}) {
	let total = 0
	for (;;) {
		const { applied, failed } = await applyReceivedBatch(scope, options)
		if (applied === 0 && !failed) return total
		total += applied
	}
}

const running = new WeakMap<Db, { wake: () => void }>()

/** Tells this process's worker that an event was kept, so it applies it now rather than at its next look. */
export function wakeEventWorker(db: Db) {
	running.get(db)?.wake()
}

/**
 * The server's event worker: applies what waits, then sleeps until the intake wakes it or POLL_MS
 * passes (events kept by another instance, or left by a stopped one). A failure (the database
 * away) is logged once and retried after a pause, without losing anything: the events wait.
 */
export function eventWorker({
	db,
	scope: scopeOf,
	log,
	pollMs = POLL_MS,
	connectionId,
}: {
	db: Db
	/** The Store's scope, asked for inside the loop: a database not yet reachable or migrated when the server starts is retried, not fatal. */
	scope: () => Promise<StoreScope>
	log: Logger
	pollMs?: number
	connectionId?: string
}) {
	let scope: StoreScope | undefined
	let stopped = false
	let woken = false
	let sleeping: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | null = null
	let failing = false
	const wake = () => {
		woken = true
		if (sleeping) {
			clearTimeout(sleeping.timer)
			sleeping.resolve()
		}
	}
	const sleep = (ms: number) =>
		new Promise<void>((resolve) => {
			if (woken || stopped) return resolve()
			sleeping = { timer: setTimeout(resolve, ms), resolve }
		}).finally(() => (sleeping = null))

	async function loop() {
		while (!stopped) {
			woken = false
			try {
				scope ??= await scopeOf()
				const { applied, failed } = await applyReceivedBatch(scope, { log, connectionId })
				if (failing) log.warn('[events] applying events again')
				failing = false
				// An event that failed is tried again after a pause, until its attempts run out.
				if (applied > 0) continue
				if (failed) {
					await sleep(pollMs)
					continue
				}
			} catch (error) {
				if (!failing) log.warn(`[events] could not apply events, retrying: ${(error as Error).message.split('\n')[0]}`)
				failing = true
			}
			await sleep(failing ? pollMs * 5 : pollMs)
		}
	}

	return {
		start() {
			running.set(db, { wake })
			const done = loop()
			return {
				wake,
				async stop() {
					stopped = true
					if (running.get(db)?.wake === wake) running.delete(db)
					wake()
					await done
				},
			}
		},
	}
}
