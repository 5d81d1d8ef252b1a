import type { Db } from '../../data/db.server'
import { applyPaymentEvent, linkPaymentIntent, paymentFields, type PaymentState } from '../../orders/orders.server'
import { parseEventBody } from './body'
import { type EventRefs, type NormalizedEvent, normalizeFor } from './normalize'
import type { StoreScope } from '../../data/scope'

export type EventConnection = { id: string; storeId: string; provider: string }
type Tx = Pick<Db, 'order' | 'providerEvent' | 'connection' | 'outboxMail' | '$executeRaw'>

/**
 * What an event did, as its inbox row keeps it (docs/decisions/029). `review`: the money or the
 * reference does not reconcile; `conflict`: its references name different Orders. Neither moves
 * an Order. `awaitingRef`: held until that reference is linked (or, `order:<id>`, until that
 * Order is paid), then applied once.
 */
export type Outcome = 'applied' | 'stale' | 'review' | 'conflict' | 'unmatched' | 'ignored'
export type Applied = { outcome: Outcome; summary: string; orderId: string | null; otherOrderId: string | null; awaitingRef: string | null }
type Result = Applied & { wake: string[] }

/** An Order an event's references name, with its payment state as the search read it. */
type Found = PaymentState & { id: string; providerRef: string | null; paymentIntentRef: string | null }
const foundFields = { id: true, providerRef: true, paymentIntentRef: true, ...paymentFields } as const

type Resolution =
	| { kind: 'order'; order: Found; bySession: boolean }
	| { kind: 'conflict'; order: Found; other: Found | null; why: string }
	| { kind: 'unknown'; claimed: Found | null; why: string }

/**
 * Which Order an event is about, by the references the store recorded for this Store and
 * Connection: the Checkout Session it started, the PaymentIntent a Session event linked, or
 * (generic scheme) the Order number. Metadata only confirms: when it names another Order, or
 * two references name two Orders, that is a conflict, never a choice [R62, R66].
 */
async function resolve(tx: Tx, connection: EventConnection, refs: EventRefs): Promise<Resolution> {
	const scope = { storeId: connection.storeId, connectionId: connection.id }
	const recordedAs = [
		...(refs.sessionId ? [{ providerRef: refs.sessionId }] : []),
		...(refs.paymentIntentId ? [{ paymentIntentRef: refs.paymentIntentId }, { providerRef: refs.paymentIntentId }] : []),
		...(refs.orderNumber !== undefined ? [{ number: refs.orderNumber }] : []),
	]
	const claims = refs.claimedOrderIds.length ? [{ id: { in: refs.claimedOrderIds } }] : []
	// The scope is repeated in each alternative so each one is an index search (Store and
	// reference, or the id): with it outside the OR, SQLite walked every Order of the Store.
	const terms = [...recordedAs, ...claims].map((term) => ({ ...scope, ...term }))
	const named = terms.length ? await tx.order.findMany({ where: { OR: terms }, select: foundFields, orderBy: { number: 'asc' }, take: 6 }) : []
	const isRecorded = (o: Found) =>
		(o.providerRef !== null && (o.providerRef === refs.sessionId || o.providerRef === refs.paymentIntentId)) ||
		(o.paymentIntentRef !== null && o.paymentIntentRef === refs.paymentIntentId) ||
		(refs.orderNumber !== undefined && o.number === refs.orderNumber)
	// The Order of the Session the store started comes first: the others are what conflicts with it.
	const recorded = named.filter(isRecorded).sort((a, b) => Number(b.providerRef === refs.sessionId) - Number(a.providerRef === refs.sessionId))
	const claimed = named.filter((o) => refs.claimedOrderIds.includes(o.id))
	const [order, second] = recorded
	if (order && second) return { kind: 'conflict', order, other: second, why: `its references name Order #${order.number} and Order #${second.number}` }
	if (!order) {
		const [first, other] = claimed
		if (first && other) return { kind: 'conflict', order: first, other, why: `its metadata names Order #${first.number} and Order #${other.number}` }
		const quoted = [refs.sessionId, refs.paymentIntentId, refs.orderNumber === undefined ? undefined : `#${refs.orderNumber}`].filter(Boolean).join(' / ')
		const whose = first ? `Order #${first.number} (named in its metadata)` : 'an order of this connection'
		const why = quoted ? `Reference ${quoted} is not one the store recorded for ${whose}` : `No reference the store recorded for ${whose} is named`
		return { kind: 'unknown', claimed: first ?? null, why }
	}
	const stranger = refs.claimedOrderIds.find((id) => id !== order.id)
	if (stranger !== undefined) {
		const other = claimed.find((c) => c.id === stranger) ?? null
		return {
			kind: 'conflict',
			order,
			other,
			why: `its reference names Order #${order.number}, its metadata ${other ? `Order #${other.number}` : 'an order that is not this one'}`,
		}
	}
	const bySession = refs.sessionId !== undefined && order.providerRef === refs.sessionId
	if (bySession && refs.paymentIntentId && order.paymentIntentRef && order.paymentIntentRef !== refs.paymentIntentId) {
		return {
			kind: 'conflict',
			order,
			other: null,
			why: `its Session names payment ${refs.paymentIntentId}, but Order #${order.number} is linked to ${order.paymentIntentRef}`,
		}
	}
	return { kind: 'order', order, bySession }
}

/** A result that links nothing; each call a new `wake` list, which a result may push to. */
const none = (): Omit<Result, 'outcome' | 'summary'> => ({ orderId: null, otherOrderId: null, awaitingRef: null, wake: [] })

/**
 * Applies one verified event; changes nothing unless every reference and the money reconcile.
 * `decision` counts how often it was decided: a link that another event made first (the write
 * waited for it) sends the event back to be decided on the Order as it is now, once [R68].
 */
async function applyEvent(tx: Tx, scope: StoreScope, connection: EventConnection, event: NormalizedEvent, decision = 1): Promise<Result> {
	if (!event.known) return { ...none(), outcome: 'ignored', summary: `Unknown event type ${event.type}: stored, nothing changed.` }
	const found = await resolve(tx, connection, event.refs)
	if (found.kind === 'conflict') {
		return {
			...none(),
			outcome: 'conflict',
			summary: `Conflict: ${found.why}; nothing changed.`,
			orderId: found.order.id,
			otherOrderId: found.other?.id ?? null,
		}
	}
	if (found.kind === 'unknown') {
		// A PaymentIntent event can arrive before the Session event that links it: it waits [R65].
		const wait = event.effect.kind !== 'none' && !event.refs.sessionId ? (event.refs.paymentIntentId ?? null) : null
		const held = wait ? `; held until a payment of this store links ${wait}` : ''
		return {
			...none(),
			outcome: found.claimed ? 'review' : 'unmatched',
			summary: `${found.why}${held}; nothing changed.`,
			orderId: found.claimed?.id ?? null,
			awaitingRef: wait,
		}
	}
	const { order } = found
	const result: Result = { ...none(), outcome: 'ignored', summary: '', orderId: order.id }
	const link = found.bySession && event.refs.paymentIntentId && !order.paymentIntentRef ? event.refs.paymentIntentId : null
	if (link && event.effect.kind === 'paid') {
		// The usual Session event: its payment is linked and the Order paid in one write, decided on
		// the Order as the search read it and made only while it is still unlinked and in that
		// status. Otherwise (short, another currency, changed meanwhile) both are done apart, below.
		const paid = await applyPaymentEvent(tx, scope, { orderId: order.id, effect: event.effect, known: order, linking: link })
		if (paid.outcome === 'applied') {
			result.wake.push(link, `order:${order.id}`)
			return { ...result, outcome: 'applied', summary: `${paid.summary} Payment ${link} linked.` }
		}
	}
	let linked = ''
	// The Order as the search read it; the link's statement answers it as it left it (this
	// transaction then holds its row).
	let known: PaymentState | null = order
	if (link) {
		known = await linkPaymentIntent(tx, scope, { orderId: order.id, paymentIntentRef: link })
		// Linked meanwhile: to this payment or another one, which resolving again tells apart.
		if (!known && decision === 1) return applyEvent(tx, scope, connection, event, decision + 1)
		if (known) {
			linked = ` Payment ${link} linked.`
			result.wake.push(link)
		}
	}
	if (event.effect.kind === 'none') {
		return { ...result, outcome: linked ? 'applied' : 'ignored', summary: `Order #${order.number}: ${event.type} needs no change.${linked}` }
	}
	const applied = await applyPaymentEvent(tx, scope, { orderId: order.id, effect: event.effect, known })
	if (applied.outcome === 'applied') result.wake.push(`order:${order.id}`)
	if (applied.outcome === 'held') return { ...result, outcome: 'review', summary: applied.summary + linked, awaitingRef: `order:${order.id}` }
	return { ...result, outcome: applied.outcome, summary: applied.summary + linked }
}

/**
 * Events of one Connection that hold or wake others take its row's lock: an event held for a
 * reference and the event that links it (or pays its Order) cannot both miss each other, as
 * they could when each commits without seeing the other's write.
 */
export function lockConnection(tx: Tx, connectionId: string) {
	// Raw: an UPDATE that writes nothing but takes the row's lock (PostgreSQL) or the database's
	// write lock (SQLite). Through Prisma's updateMany it cost three to four times the CPU, and
	// moved the Connection's `updatedAt` on every payment.
	return tx.$executeRaw`UPDATE "connections" SET "rejectedEvents" = "rejectedEvents" WHERE "id" = ${connectionId}`
}

/** Bounds one delivery's work: held events woken by events that were themselves woken. */
const MAX_WAKE_ROUNDS = 5

/**
 * Applies held events whose reference just became known (or whose Order was just paid), in the
 * transaction that made it possible: each is claimed by clearing its `awaitingRef`, so it is
 * applied once however many deliveries or replays race for it [R64, R65].
 */
async function wakeHeld(tx: Tx, scope: StoreScope, connection: EventConnection, keys: string[], replaying?: string) {
	const done = new Set<string>(replaying ? [replaying] : [])
	let queue = keys
	for (let round = 0; queue.length > 0 && round < MAX_WAKE_ROUNDS; round++) {
		const rows = await tx.providerEvent.findMany({
			where: { connectionId: connection.id, awaitingRef: { in: queue } },
			orderBy: [{ occurredAt: 'asc' }, { receivedAt: 'asc' }],
			take: 100,
			select: { id: true, awaitingRef: true, payload: true },
		})
		queue = []
		for (const row of rows) {
			if (done.has(row.id)) continue
			const claimed = await tx.providerEvent.updateMany({ where: { id: row.id, awaitingRef: row.awaitingRef }, data: { awaitingRef: null } })
			if (claimed.count !== 1) continue
			done.add(row.id)
			const { wake, ...applied } = await applyEvent(tx, scope, connection, normalizeFor(connection.provider, parseEventBody(row.payload)))
			await tx.providerEvent.update({ where: { id: row.id }, data: applied })
			queue.push(...wake)
		}
	}
}

/**
 * Applies an event and then whatever it was the missing piece for. A replayed row is not woken
 * by its own replay: the replay records its outcome.
 */
export async function applyWithHeld(
	tx: Tx,
	scope: StoreScope,
	connection: EventConnection,
	event: NormalizedEvent,
	{ replaying }: { replaying?: string } = {},
): Promise<Applied> {
	let result = await applyEvent(tx, scope, connection, event)
	if (result.awaitingRef || result.wake.length > 0) {
		await lockConnection(tx, connection.id)
		// Decided before the lock: decide again now that no link or payment can be in flight.
		if (result.awaitingRef) result = await applyEvent(tx, scope, connection, event)
		await wakeHeld(tx, scope, connection, result.wake, replaying)
	}
	const { wake: _wake, ...applied } = result
	return applied
}
