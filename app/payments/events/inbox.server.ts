import { auditEntry } from '../../audit/audit.server'
import type { Db } from '../../data/db.server'
import type { AdminViewer } from '../../data/viewer'
import { notFound } from '../../errors.server'
import { type NormalizedEvent, normalizeGeneric, normalizeStripe } from './normalize'

export type EventConnection = { id: string; storeId: string; provider: string }
type Tx = Pick<Db, 'order' | 'providerEvent'>
type Applied = { outcome: 'applied' | 'stale' | 'unmatched' | 'ignored'; summary: string; orderId: string | null }

export function normalizeFor(provider: string, body: unknown): NormalizedEvent {
	return provider === 'stripe' ? normalizeStripe(body) : normalizeGeneric(body)
}

/**
 * Spec 6.3-6.6: an event changes only an Order of its own Store AND Connection; it moves an
 * Order only forwards (awaiting payment → paid → refunded; a late "processing", a repeated
 * "succeeded" or a "succeeded" after a refund changes nothing); refunds are cumulative amounts
 * (the larger one wins), so any order of delivery ends in the same state.
 */
async function applyToOrder(tx: Tx, connection: EventConnection, event: NormalizedEvent): Promise<Applied> {
	const refs = [
		...(event.orderId ? [{ id: event.orderId }] : []),
		...(event.paymentIntentId ? [{ paymentIntentRef: event.paymentIntentId }] : []),
		...(event.sessionId ? [{ providerRef: event.sessionId }] : []),
	]
	const order = refs.length
		? await tx.order.findFirst({
				where: { storeId: connection.storeId, connectionId: connection.id, OR: refs },
				select: { id: true, number: true, status: true, totalMinor: true, refundedMinor: true, disputed: true, paymentIntentRef: true },
			})
		: null
	if (!event.known) return { outcome: 'ignored', summary: `Unknown event type ${event.type}: stored, nothing changed.`, orderId: order?.id ?? null }
	if (!order) return { outcome: 'unmatched', summary: 'No order of this store and connection matches: nothing changed.', orderId: null }
	const label = `Order #${order.number}`
	const stale = (why: string): Applied => ({ outcome: 'stale', summary: `${label}: ${why}; nothing changed.`, orderId: order.id })
	const where = { id: order.id, storeId: connection.storeId, status: order.status }
	const effect = event.effect

	if (effect.kind === 'none') return { outcome: 'ignored', summary: `${label}: ${event.type} needs no change.`, orderId: order.id }
	if (effect.kind === 'paid') {
		if (order.status !== 'awaiting_payment') {
			if (effect.paymentIntentId && !order.paymentIntentRef) {
				await tx.order.updateMany({ where: { id: order.id }, data: { paymentIntentRef: effect.paymentIntentId } })
			}
			return stale(`already ${order.status.replace('_', ' ')}`)
		}
		const changed = await tx.order.updateMany({
			where,
			data: { status: 'paid', paidAt: new Date(), paymentNote: null, ...(effect.paymentIntentId ? { paymentIntentRef: effect.paymentIntentId } : {}) },
		})
		return changed.count === 1 ? { outcome: 'applied', summary: `${label} marked paid.`, orderId: order.id } : stale('changed meanwhile')
	}
	if (effect.kind === 'failed') {
		if (order.status !== 'awaiting_payment') return stale(`already ${order.status.replace('_', ' ')}`)
		await tx.order.updateMany({ where, data: { paymentNote: `Payment failed: ${effect.reason.slice(0, 200)}` } })
		return { outcome: 'applied', summary: `${label}: payment failed (${effect.reason.slice(0, 80)}); it stays awaiting payment.`, orderId: order.id }
	}
	if (effect.kind === 'dispute') {
		if (order.disputed) return stale('already flagged as disputed')
		await tx.order.updateMany({ where: { id: order.id }, data: { disputed: true } })
		return { outcome: 'applied', summary: `${label} flagged: the payment is disputed.`, orderId: order.id }
	}
	const refunded = Math.min(effect.amountRefundedMinor, order.totalMinor)
	if (refunded <= order.refundedMinor) return stale('this refund is already recorded')
	const full = refunded >= order.totalMinor
	// A refund proves the payment happened: an unpaid Order moves to paid (or refunded) with it.
	const status = order.status === 'cancelled' ? 'cancelled' : full ? 'refunded' : order.status === 'awaiting_payment' ? 'paid' : order.status
	const changed = await tx.order.updateMany({
		where: { ...where, refundedMinor: order.refundedMinor },
		data: { refundedMinor: refunded, status, ...(order.status === 'awaiting_payment' ? { paidAt: new Date() } : {}) },
	})
	if (changed.count !== 1) return stale('changed meanwhile')
	return { outcome: 'applied', summary: `${label}: refund of ${refunded} minor units recorded${full ? '; fully refunded' : ''}.`, orderId: order.id }
}

function isUniqueViolation(error: unknown) {
	return (error as { code?: string })?.code === 'P2002'
}

/**
 * Records a verified event and applies it in ONE transaction (spec 6.4, 6.5): the event id is
 * unique per Connection, so a repeat (sequential or concurrent) fails the insert, applies
 * nothing, and is answered as a duplicate.
 */
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

export async function ingestEvent(db: Db, connection: EventConnection, input: { eventId: string; payload: string; event: NormalizedEvent }) {
	const eventId = input.eventId.slice(0, 200)
	const recentKey = `${connection.id}:${eventId}`
	const duplicate = async () => {
		remember(db, recentKey)
		await db.providerEvent.updateMany({ where: { connectionId: connection.id, providerEventId: eventId }, data: { duplicates: { increment: 1 } } })
		return { duplicate: true, outcome: 'duplicate' as const, summary: 'Already received: nothing changed.', orderId: null }
	}
	// Most repeats are answered here, without a transaction; racing ones meet the unique key below.
	if (recentEvents.get(db)?.has(recentKey)) return duplicate()
	const seen = await db.providerEvent.findUnique({ where: { connectionId_providerEventId: { connectionId: connection.id, providerEventId: eventId } }, select: { id: true } })
	if (seen) return duplicate()
	try {
		return await db.$transaction(async (tx) => {
			const row = await tx.providerEvent.create({
				data: {
					storeId: connection.storeId,
					connectionId: connection.id,
					providerEventId: eventId,
					type: input.event.type.slice(0, 100),
					occurredAt: input.event.occurredAt,
					payload: input.payload,
					outcome: 'pending',
					summary: '',
				},
				select: { id: true },
			})
			const applied = await applyToOrder(tx, connection, input.event)
			await tx.providerEvent.update({ where: { id: row.id }, data: applied })
			return { duplicate: false, ...applied }
		}).then((result) => {
			remember(db, recentKey)
			return result
		})
	} catch (error) {
		if (!isUniqueViolation(error)) throw error
		return duplicate()
	}
}

/** Counts a refused delivery on its Connection; its body is not kept. */
export function countRejection(db: Db, connectionId: string) {
	return db.connection.update({ where: { id: connectionId }, data: { rejectedEvents: { increment: 1 }, lastRejectedAt: new Date() }, select: { id: true } })
}

export const INBOX_PAGE_SIZE = 50

/** The event inbox of Store Admin (issue 9.7): its own Store only. */
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
					select: { id: true, providerEventId: true, type: true, outcome: true, summary: true, occurredAt: true, receivedAt: true, duplicates: true, connection: { select: { handle: true } } },
				}),
				db.providerEvent.count({ where: { storeId } }),
				db.connection.findMany({ where: { storeId }, select: { handle: true, provider: true, rejectedEvents: true, lastRejectedAt: true }, orderBy: { createdAt: 'asc' } }),
			])
			return { events, total, connections, page, pages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)) }
		},

		/** Re-applies a stored, verified event: always safe, since applying is idempotent. */
		async replay(id: string) {
			const row = await db.providerEvent.findFirst({
				where: { id, storeId },
				select: { id: true, payload: true, providerEventId: true, connection: { select: { id: true, storeId: true, provider: true } } },
			})
			if (!row) throw notFound('That event')
			const event = normalizeFor(row.connection.provider, JSON.parse(row.payload))
			return db.$transaction(async (tx) => {
				const applied = await applyToOrder(tx, row.connection, event)
				await auditEntry(tx, admin, { action: 'event.replay', targetType: 'provider_event', targetId: row.id, detail: { eventId: row.providerEventId, outcome: applied.outcome } })
				return applied
			})
		},
	}
}
