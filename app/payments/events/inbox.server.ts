import { auditedChange } from '../../audit/audit.server'
import { type Db, sql, sqlJoin } from '../../data/db.server'
import { beyondTimeKey, keysetPage, timeKey, type Cursor } from '../../data/keyset'
import type { AdminViewer } from '../../data/viewer'
import { notFound } from '../../errors.server'
import { applyWithHeld, type EventConnection, lockConnection } from './apply.server'
import { parseEventBody } from './body'
import { type NormalizedEvent, normalizeFor } from './normalize'
import { isUniqueViolation } from '../../data/unique-violation'
import { isContention } from '../../orders/contention.server'
import { type StoreScope, viewerScope } from '../../data/scope'

/**
 * Event ids this process has recorded lately, per database: a provider's retry burst is
 * answered without asking the database whether it saw the event. Only a shortcut: a miss
 * falls through to the database, whose unique key stays the authority.
 */
const RECENT_LIMIT = 10_000
const recentEvents = new WeakMap<Db, Set<string>>()

function remember(db: Db, key: string) {
	let recent = recentEvents.get(db)
	if (!recent) recentEvents.set(db, (recent = new Set()))
	if (recent.size >= RECENT_LIMIT) recent.delete(recent.values().next().value as string)
	recent.add(key)
}

/** First deliveries being kept in this process: whether each ended kept. */
const keepingEvents = new WeakMap<Db, Map<string, Promise<boolean>>>()
function inFlight(db: Db) {
	let keeping = keepingEvents.get(db)
	if (!keeping) keepingEvents.set(db, (keeping = new Map()))
	return keeping
}

/**
 * Repeats are counted in memory and written together: a write starts one turn of the event loop
 * after the first repeat that needs it (setImmediate), so the repeats answered in the same turn
 * share it, and while one statement writes counts, the repeats arriving meanwhile (of any event)
 * wait for the next, which writes all of them at once. Started at once instead, over HTTP on
 * SQLite (where a write returns before the next request is read) each repeat wrote its own
 * UPDATE: 1,800 statements for the bench's 1,800 repeats, against about 370 now.
 * A provider retries its deliveries spread over many events, so counting each event's burst
 * alone still cost one UPDATE per repeat (nine in ten of a burst's deliveries, most of the
 * statements a retry storm made). Every delivery awaits the write that carries its count, as
 * every write of the store is awaited by the request that made it: when it is answered, its
 * count is in the database (a timer-driven flush was tried and left: written beside open
 * transactions from outside any request, it stalled the bench's PostgreSQL run now and then).
 * The count is evidence for the operator, not money: nothing is decided by it. A failed write
 * fails the deliveries of its batch, which the provider sends again; when a batch spans two
 * Connections and only one statement failed, the other's repeats may be counted twice
 * (docs/decisions/054).
 */
type CountBatch = { counts: Map<string, Map<string, number>>; written: Promise<void>; done: () => void; failed: (error: unknown) => void }
type Counter = { next: CountBatch | null; writing: boolean }
const counters = new WeakMap<Db, Counter>()

/** Events per statement: two parameters each, well inside either engine's limit. */
const COUNTS_PER_STATEMENT = 200

function newBatch(): CountBatch {
	let done: CountBatch['done'] = () => {}
	let failed: CountBatch['failed'] = () => {}
	const written = new Promise<void>((resolve, reject) => {
		done = resolve
		failed = reject
	})
	return { counts: new Map(), written, done, failed }
}

/** Attempts of one count statement that lost a lock race (PostgreSQL's deadlock detector picked it). */
const COUNT_ATTEMPTS = 3

/**
 * One statement per Connection (and per COUNTS_PER_STATEMENT events): each row gets its own
 * increment. The event worker may hold some of those rows in a batch, and two transactions that
 * lock rows in two orders deadlock: PostgreSQL then ends one of them (after deadlock_timeout),
 * and a count statement it ended, which wrote nothing, is sent again.
 */
async function writeCounts(db: Db, counts: CountBatch['counts']) {
	for (const [connectionId, events] of counts) {
		const entries = [...events]
		for (let at = 0; at < entries.length; at += COUNTS_PER_STATEMENT) {
			const slice = entries.slice(at, at + COUNTS_PER_STATEMENT)
			const increments = sqlJoin(
				slice.map(([eventId, count]) => sql`WHEN ${eventId} THEN CAST(${count} AS INTEGER)`),
				' ',
			)
			for (let attempt = 1; ; attempt++) {
				try {
					// Raw, one statement: Prisma's updateMany wraps its UPDATE in BEGIN and COMMIT.
					await db.$executeRaw`UPDATE "provider_events" SET "duplicates" = "duplicates" + CASE "providerEventId" ${increments} ELSE 0 END
						WHERE "connectionId" = ${connectionId} AND "providerEventId" IN (${sqlJoin(slice.map(([eventId]) => eventId))})`
					break
				} catch (error) {
					if (attempt >= COUNT_ATTEMPTS || !isContention(error)) throw error
				}
			}
		}
	}
}

async function writeBatches(db: Db, counter: Counter) {
	counter.writing = true
	try {
		for (let batch = counter.next; batch; batch = counter.next) {
			counter.next = null
			try {
				await writeCounts(db, batch.counts)
				batch.done()
			} catch (error) {
				batch.failed(error)
			}
		}
	} finally {
		counter.writing = false
	}
}

function countDuplicate(db: Db, connectionId: string, eventId: string): Promise<void> {
	let counter = counters.get(db)
	if (!counter) counters.set(db, (counter = { next: null, writing: false }))
	const batch = (counter.next ??= newBatch())
	let events = batch.counts.get(connectionId)
	if (!events) batch.counts.set(connectionId, (events = new Map()))
	events.set(eventId, (events.get(eventId) ?? 0) + 1)
	if (!counter.writing) {
		// Marked now, written next turn: the repeats answered in this turn join this batch.
		counter.writing = true
		setImmediate(() => void writeBatches(db, counter))
	}
	return batch.written
}

/** The outcome of an event kept and not yet applied: the event worker's queue (worker.server.ts). */
export const RECEIVED = 'received'

/**
 * Keeps a verified event, its body byte for byte [R61], for the event worker to apply
 * (worker.server.ts): the intake only verifies, keeps and answers, so a provider's delivery is
 * acknowledged whatever applying it will take, and an event is never lost between the answer and
 * its effect (the inbox is the queue). The event id is unique per Connection, so a repeat
 * (sequential or concurrent, in this process or another) fails the insert and is answered as a
 * duplicate, counted, changing nothing [R63].
 */
export async function recordEvent(scope: StoreScope, connection: EventConnection, input: { eventId: string; payload: Uint8Array; event: NormalizedEvent }) {
	const { db } = scope
	const eventId = input.eventId.slice(0, 200)
	const recentKey = `${connection.id}:${eventId}`
	const duplicate = async () => {
		remember(db, recentKey)
		await countDuplicate(db, connection.id, eventId)
		return { duplicate: true, outcome: 'duplicate' as const }
	}
	// Most repeats are answered here, without a write. The others (an event this process does not
	// remember: kept before a restart, or by another instance) meet the unique key: no read first,
	// which would cost every first delivery, the usual case, a statement to spare a rare repeat
	// a refused insert (docs/decisions/055, 063).
	if (recentEvents.get(db)?.has(recentKey)) return duplicate()
	// A repeat of an event this process is keeping right now waits for that insert instead of
	// making one of its own that the unique key would refuse (a refused insert costs a round trip
	// and an error): a provider's burst of retries meets one insert. If that one ends without
	// keeping the event, one of the waiting repeats tries next.
	const keeping = inFlight(db)
	for (let first = keeping.get(recentKey); first; first = keeping.get(recentKey)) {
		if (await first) return duplicate()
	}
	let settle: (kept: boolean) => void = () => {}
	keeping.set(recentKey, new Promise<boolean>((resolve) => (settle = resolve)))
	try {
		await db.providerEvent.create({
			data: {
				storeId: connection.storeId,
				connectionId: connection.id,
				providerEventId: eventId,
				type: input.event.type.slice(0, 100),
				occurredAt: input.event.occurredAt,
				payload: new Uint8Array(input.payload),
				outcome: RECEIVED,
				summary: 'Received: waiting to be applied.',
			},
			select: { id: true },
		})
		remember(db, recentKey)
		settle(true)
		return { duplicate: false, outcome: RECEIVED }
	} catch (error) {
		// Kept already (by another process): the waiting repeats are duplicates too.
		const kept = isUniqueViolation(error)
		settle(kept)
		if (!kept) throw error
		return duplicate()
	} finally {
		keeping.delete(recentKey)
	}
}

/** Counts a refused delivery on its Connection; its body is not kept. */
export function countRejection(db: Db, connectionId: string) {
	return db.connection.update({ where: { id: connectionId }, data: { rejectedEvents: { increment: 1 }, lastRejectedAt: new Date() }, select: { id: true } })
}

export const INBOX_PAGE_SIZE = 50

/** The event inbox of Store Admin: its own Store only [R62]. */
export function eventInboxRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	return {
		/** A page of the inbox, newest first, from the key of the event at its edge [R142]. */
		async page({ cursor = null }: { cursor?: Cursor } = {}) {
			const where = { storeId }
			const [found, total, connections] = await Promise.all([
				keysetPage({
					cursor,
					size: INBOX_PAGE_SIZE,
					read: (from, direction, take) => {
						const order = direction === 'older' ? 'desc' : 'asc'
						return db.providerEvent.findMany({
							where: from === null ? where : { ...where, ...beyondTimeKey('receivedAt', from, direction) },
							orderBy: [{ receivedAt: order }, { id: order }],
							take,
							select: {
								id: true,
								providerEventId: true,
								type: true,
								outcome: true,
								summary: true,
								occurredAt: true,
								receivedAt: true,
								duplicates: true,
								connection: { select: { handle: true } },
							},
						})
					},
					keyOf: (event) => timeKey(event.receivedAt, event.id),
				}),
				db.providerEvent.count({ where: { storeId } }),
				db.connection.findMany({
					where: { storeId },
					select: { handle: true, provider: true, rejectedEvents: true, lastRejectedAt: true },
					orderBy: { createdAt: 'asc' },
				}),
			])
			return { events: found.rows, newer: found.newer, older: found.older, total, connections }
		},

		/**
		 * Re-applies a stored, verified event through the same reconciliation as a delivery:
		 * always safe, since applying is idempotent. A row still open (held, for review, in
		 * conflict, unmatched) takes the new outcome; a settled one keeps its history.
		 */
		async replay(id: string) {
			const row = await db.providerEvent.findFirst({
				where: { id, storeId },
				select: {
					id: true,
					payload: true,
					outcome: true,
					awaitingRef: true,
					providerEventId: true,
					connection: { select: { id: true, storeId: true, provider: true } },
				},
			})
			if (!row) throw notFound('That event')
			const event = normalizeFor(row.connection.provider, parseEventBody(row.payload))
			return auditedChange(db, admin, {
				write: async (tx) => {
					// As the event worker does: one Connection's events are applied one at a time.
					await lockConnection(tx, row.connection.id)
					const applied = await applyWithHeld(tx, viewerScope(db, admin), row.connection, event, { replaying: row.id })
					if (OPEN_OUTCOMES.includes(row.outcome)) {
						// Unless a delivery settled it meanwhile (it cleared `awaitingRef`): that outcome stays.
						await tx.providerEvent.updateMany({ where: { id: row.id, outcome: row.outcome, awaitingRef: row.awaitingRef }, data: applied })
					}
					return applied
				},
				entry: (applied) => ({
					action: 'event.replay',
					targetType: 'provider_event',
					targetId: row.id,
					detail: { eventId: row.providerEventId, outcome: applied.outcome },
				}),
			})
		},
	}
}

/** Outcomes an operator is still expected to act on; a replay may settle them. */
const OPEN_OUTCOMES = ['review', 'conflict', 'unmatched', RECEIVED, 'failed']
