import { auditEntry } from '../../audit/audit.server'
import type { Db } from '../../data/db.server'
import type { AdminViewer } from '../../data/viewer'
import { notFound } from '../../errors.server'
import { applyWithHeld, type EventConnection } from './apply.server'
import { parseEventBody } from './body'
import { type NormalizedEvent, normalizeFor } from './normalize'
import { isUniqueViolation } from '../../data/unique-violation'
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

/** First deliveries being applied in this process: whether each ended recorded. */
const applyingEvents = new WeakMap<Db, Map<string, Promise<boolean>>>()
function inFlight(db: Db) {
	let applying = applyingEvents.get(db)
	if (!applying) applyingEvents.set(db, (applying = new Map()))
	return applying
}

/**
 * Repeats are counted in memory and written together: while one delivery writes an event's
 * repeat count, the repeats arriving meanwhile only add to what it writes next, so a provider's
 * burst of retries costs a few UPDATEs instead of one per delivery. The delivery that writes
 * awaits its write, as every write of the store is awaited by the request that made it (a
 * timer-driven flush was tried and left: written beside open transactions from outside any
 * request, it stalled the bench's PostgreSQL run now and then). The count is evidence for the
 * operator, not money: nothing is decided by it, and a failed write loses only counts.
 */
type Counting = { pending: number; writing: Promise<void> }
const repeatCounts = new WeakMap<Db, Map<string, Counting>>()

async function countDuplicate(db: Db, connectionId: string, eventId: string) {
	let counts = repeatCounts.get(db)
	if (!counts) repeatCounts.set(db, (counts = new Map()))
	const key = `${connectionId}\u0000${eventId}`
	const current = counts.get(key)
	if (current) {
		current.pending++
		return
	}
	const counting: Counting = { pending: 1, writing: Promise.resolve() }
	counts.set(key, counting)
	counting.writing = (async () => {
		try {
			while (counting.pending > 0) {
				const count = counting.pending
				counting.pending = 0
				// One statement: Prisma's updateMany wraps its UPDATE in BEGIN and COMMIT, three
				// round trips for every repeat, which made repeats most of what a retry burst cost.
				await db.$executeRaw`UPDATE "provider_events" SET "duplicates" = "duplicates" + ${count} WHERE "connectionId" = ${connectionId} AND "providerEventId" = ${eventId}`
			}
		} finally {
			counts.delete(key)
		}
	})()
	await counting.writing
}

/** Waits until every repeat counted so far is written. */
export async function settleDuplicateCounts(db: Db): Promise<void> {
	const counts = repeatCounts.get(db)
	if (counts) await Promise.allSettled([...counts.values()].map((counting) => counting.writing))
}

/**
 * Records a verified event, its body byte for byte [R61], and applies it in ONE transaction
 * [R63, R64]: the event id is unique per Connection, so a repeat (sequential or concurrent)
 * fails the insert, applies nothing, and is answered as a duplicate.
 */
export async function ingestEvent(scope: StoreScope, connection: EventConnection, input: { eventId: string; payload: Uint8Array; event: NormalizedEvent }) {
	const { db } = scope
	const eventId = input.eventId.slice(0, 200)
	const recentKey = `${connection.id}:${eventId}`
	const duplicate = async () => {
		remember(db, recentKey)
		await countDuplicate(db, connection.id, eventId)
		return { duplicate: true, outcome: 'duplicate' as const, summary: 'Already received: nothing changed.', orderId: null }
	}
	// Most repeats are answered here, without a transaction; racing ones meet the unique key below.
	if (recentEvents.get(db)?.has(recentKey)) return duplicate()
	const seen = await db.providerEvent.findUnique({
		where: { connectionId_providerEventId: { connectionId: connection.id, providerEventId: eventId } },
		select: { id: true },
	})
	if (seen) return duplicate()
	// A repeat of an event this process is applying right now waits for that delivery instead
	// of opening a transaction of its own that the unique key would refuse anyway; if that one
	// ends without recording it, one of the waiting repeats tries next.
	const first = inFlight(db)
	for (let applying = first.get(recentKey); applying; applying = first.get(recentKey)) {
		if (await applying) return duplicate()
	}
	let settle: (recorded: boolean) => void = () => {}
	first.set(recentKey, new Promise<boolean>((resolve) => (settle = resolve)))
	try {
		return await db
			.$transaction(async (tx) => {
				const row = await tx.providerEvent.create({
					data: {
						storeId: connection.storeId,
						connectionId: connection.id,
						providerEventId: eventId,
						type: input.event.type.slice(0, 100),
						occurredAt: input.event.occurredAt,
						payload: new Uint8Array(input.payload),
						outcome: 'pending',
						summary: '',
					},
					select: { id: true },
				})
				const applied = await applyWithHeld(tx, scope, connection, input.event)
				await tx.providerEvent.update({ where: { id: row.id }, data: applied })
				return { duplicate: false, ...applied }
			})
			.then((result) => {
				remember(db, recentKey)
				settle(true)
				return result
			})
	} catch (error) {
		// Waiting repeats try for themselves: the event may not be recorded.
		settle(false)
		if (!isUniqueViolation(error)) throw error
		return duplicate()
	} finally {
		first.delete(recentKey)
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
		async page({ page = 1 }: { page?: number } = {}) {
			const [events, total, connections] = await Promise.all([
				db.providerEvent.findMany({
					where: { storeId },
					orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
					skip: (page - 1) * INBOX_PAGE_SIZE,
					take: INBOX_PAGE_SIZE,
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
				}),
				db.providerEvent.count({ where: { storeId } }),
				db.connection.findMany({
					where: { storeId },
					select: { handle: true, provider: true, rejectedEvents: true, lastRejectedAt: true },
					orderBy: { createdAt: 'asc' },
				}),
			])
			return { events, total, connections, page, pages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)) }
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
			return db.$transaction(async (tx) => {
				const applied = await applyWithHeld(tx, viewerScope(db, admin), row.connection, event, { replaying: row.id })
				if (OPEN_OUTCOMES.includes(row.outcome)) {
					// Unless a delivery settled it meanwhile (it cleared `awaitingRef`): that outcome stays.
					await tx.providerEvent.updateMany({ where: { id: row.id, outcome: row.outcome, awaitingRef: row.awaitingRef }, data: applied })
				}
				await auditEntry(tx, admin, {
					action: 'event.replay',
					targetType: 'provider_event',
					targetId: row.id,
					detail: { eventId: row.providerEventId, outcome: applied.outcome },
				})
				return applied
			})
		},
	}
}

/** Outcomes an operator is still expected to act on; a replay may settle them. */
const OPEN_OUTCOMES = ['review', 'conflict', 'unmatched']
