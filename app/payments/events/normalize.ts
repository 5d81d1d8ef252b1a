import type { PaymentEffect } from '../../orders/orders.server'

/**
 * Provider events in the store's own words: the references they name, and what they mean for
 * an Order's payment. Unknown types are kept and acknowledged, never errors.
 */
export type EventRefs = {
	/** Stripe Checkout Session id: the reference the store records when it starts a payment. */
	sessionId?: string
	/** Stripe PaymentIntent id: known to the store once a Checkout Session event links it. */
	paymentIntentId?: string
	/** The generic scheme's reference: the Order number the shopper quoted. */
	orderNumber?: number
	/** What the event's own metadata claims (Order ids): never selects an Order by itself [R66]. */
	claimedOrderIds: string[]
}

export type NormalizedEvent = {
	type: string
	occurredAt: Date
	refs: EventRefs
	effect: PaymentEffect | { kind: 'none' }
	known: boolean
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {})
const str = (value: unknown) => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined)
const num = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined)
const currency = (value: unknown) => (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null)
const claims = (...values: unknown[]) => [...new Set(values.map(str).filter((v): v is string => v !== undefined))]
const when = (seconds: unknown) => new Date((num(seconds) ?? Math.floor(Date.now() / 1000)) * 1000)

/**
 * Stripe: a Checkout Session names itself (the reference the store recorded) and the
 * PaymentIntent it created; PaymentIntent and Charge events name only the PaymentIntent.
 * Amounts: `amount_received` (PaymentIntent), `amount_total` (Session), cumulative
 * `amount_refunded` (Charge), each with its `currency`.
 */
export function normalizeStripe(event: unknown): NormalizedEvent {
	const e = obj(event)
	const type = str(e.type) ?? 'unknown'
	const object = obj(obj(e.data).object)
	const metadata = obj(object.metadata)
	const base = { type, occurredAt: when(e.created), known: true }
	const byIntent = (id: unknown) => ({ paymentIntentId: str(id), claimedOrderIds: claims(metadata.orderId) })
	switch (type) {
		case 'payment_intent.succeeded':
			return {
				...base,
				refs: byIntent(object.id),
				effect: { kind: 'paid', amountMinor: num(object.amount_received) ?? null, currency: currency(object.currency) },
			}
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded':
		case 'checkout.session.async_payment_failed': {
			const refs = {
				sessionId: str(object.id),
				paymentIntentId: str(object.payment_intent),
				claimedOrderIds: claims(metadata.orderId, object.client_reference_id),
			}
			const paid = type === 'checkout.session.async_payment_succeeded' || (type === 'checkout.session.completed' && object.payment_status === 'paid')
			const effect: NormalizedEvent['effect'] = paid
				? { kind: 'paid', amountMinor: num(object.amount_total) ?? null, currency: currency(object.currency) }
				: type === 'checkout.session.async_payment_failed'
					? { kind: 'failed', reason: 'The payment failed.' }
					: { kind: 'none' }
			return { ...base, refs, effect }
		}
		case 'payment_intent.payment_failed':
			return { ...base, refs: byIntent(object.id), effect: { kind: 'failed', reason: str(obj(object.last_payment_error).message) ?? 'The payment failed.' } }
		case 'charge.refunded':
			return {
				...base,
				refs: byIntent(object.payment_intent),
				effect: { kind: 'refund', refundedMinor: num(object.amount_refunded) ?? null, currency: currency(object.currency) },
			}
		case 'charge.dispute.created':
			return { ...base, refs: byIntent(object.payment_intent), effect: { kind: 'dispute' } }
		case 'payment_intent.processing':
		case 'payment_intent.created':
			return { ...base, refs: byIntent(object.id), effect: { kind: 'none' } }
		case 'charge.succeeded':
			return { ...base, refs: byIntent(object.payment_intent), effect: { kind: 'none' } }
		default:
			return { ...base, refs: { claimedOrderIds: [] }, known: false, effect: { kind: 'none' } }
	}
}

/** The generic scheme's reference: the Order number as the shopper quotes it, "1001" or "#1001". */
function orderNumber(value: unknown) {
	const match = typeof value === 'string' ? /^#?(\d{1,9})$/.exec(value.trim()) : null
	return match ? Number(match[1]) : undefined
}

/**
 * The generic scheme (Standard Webhooks), for an offline or custom integration; the body is
 * `{ "type", "occurred_at": <unix s>, "data": { … } }` with these types (docs/decisions/029):
 * - `payment.succeeded`: `reference` (the Order number the shopper quoted), `amount` (minor
 *   units received), `currency` (ISO 4217)
 * - `refund.succeeded`: `reference`, `amount_refunded` (cumulative, minor units), `currency`
 * - `payment.failed`: `reference`, `reason`; `dispute.created`: `reference`
 * An optional `order_id` is metadata only: it never selects an Order.
 */
export function normalizeGeneric(body: unknown): NormalizedEvent {
	const e = obj(body)
	const data = obj(e.data)
	const type = str(e.type) ?? 'unknown'
	const base = {
		type,
		occurredAt: when(e.occurred_at),
		refs: { orderNumber: orderNumber(data.reference), claimedOrderIds: claims(data.order_id) },
		known: true,
	}
	switch (type) {
		case 'payment.succeeded':
			return { ...base, effect: { kind: 'paid', amountMinor: num(data.amount) ?? null, currency: currency(data.currency) } }
		case 'payment.failed':
			return { ...base, effect: { kind: 'failed', reason: str(data.reason) ?? 'The payment failed.' } }
		case 'refund.succeeded':
			return { ...base, effect: { kind: 'refund', refundedMinor: num(data.amount_refunded) ?? null, currency: currency(data.currency) } }
		case 'dispute.created':
			return { ...base, effect: { kind: 'dispute' } }
		default:
			return { ...base, known: false, effect: { kind: 'none' } }
	}
}

export function normalizeFor(provider: string, body: unknown): NormalizedEvent {
	return provider === 'stripe' ? normalizeStripe(body) : normalizeGeneric(body)
}
