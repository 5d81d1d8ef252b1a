/**
 * Provider events in the store's own words: which Order they point at and what they mean
 * for it. Unknown types are kept and acknowledged, never errors (issue 9.6).
 */
export type Effect =
	| { kind: 'paid'; paymentIntentId?: string }
	| { kind: 'failed'; reason: string }
	| { kind: 'refund'; amountRefundedMinor: number; amountMinor: number }
	| { kind: 'dispute' }
	| { kind: 'none' }

export type NormalizedEvent = {
	type: string
	occurredAt: Date
	/** Ways to find the Order, all checked against the Connection's Store and Connection. */
	orderId?: string
	paymentIntentId?: string
	sessionId?: string
	effect: Effect
	known: boolean
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj => (typeof value === 'object' && value !== null ? (value as Obj) : {})
const str = (value: unknown) => (typeof value === 'string' && value.length <= 200 ? value : undefined)
const num = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined)

export function normalizeStripe(event: unknown): NormalizedEvent {
	const e = obj(event)
	const type = str(e.type) ?? 'unknown'
	const object = obj(obj(e.data).object)
	const metadata = obj(object.metadata)
	const base = {
		type,
		occurredAt: new Date((num(e.created) ?? Math.floor(Date.now() / 1000)) * 1000),
		orderId: str(metadata.orderId) ?? str(object.client_reference_id),
		known: true,
	}
	switch (type) {
		case 'payment_intent.succeeded':
			return { ...base, paymentIntentId: str(object.id), effect: { kind: 'paid', paymentIntentId: str(object.id) } }
		case 'checkout.session.completed':
		case 'checkout.session.async_payment_succeeded':
			return {
				...base,
				sessionId: str(object.id),
				paymentIntentId: str(object.payment_intent),
				effect: object.payment_status === 'paid' || type === 'checkout.session.async_payment_succeeded' ? { kind: 'paid', paymentIntentId: str(object.payment_intent) } : { kind: 'none' },
			}
		case 'payment_intent.payment_failed':
			return {
				...base,
				paymentIntentId: str(object.id),
				effect: { kind: 'failed', reason: str(obj(object.last_payment_error).message) ?? 'The payment failed.' },
			}
		case 'checkout.session.async_payment_failed':
			return { ...base, sessionId: str(object.id), effect: { kind: 'failed', reason: 'The payment failed.' } }
		case 'charge.refunded':
			return {
				...base,
				paymentIntentId: str(object.payment_intent),
				effect: { kind: 'refund', amountRefundedMinor: num(object.amount_refunded) ?? 0, amountMinor: num(object.amount) ?? 0 },
			}
		case 'charge.dispute.created':
			return { ...base, paymentIntentId: str(object.payment_intent), effect: { kind: 'dispute' } }
		case 'payment_intent.processing':
		case 'payment_intent.created':
		case 'charge.succeeded':
			return { ...base, paymentIntentId: str(object.payment_intent) ?? str(object.id), effect: { kind: 'none' } }
		default:
			return { ...base, known: false, effect: { kind: 'none' } }
	}
}

/**
 * The generic scheme's body: `{ "type": "payment.succeeded" | "payment.failed" | "refund.succeeded"
 * | "dispute.created", "occurred_at": <unix s>, "data": { "order_id", "amount_refunded", "amount", "reason" } }`.
 */
export function normalizeGeneric(body: unknown): NormalizedEvent {
	const e = obj(body)
	const data = obj(e.data)
	const type = str(e.type) ?? 'unknown'
	const base = { type, occurredAt: new Date((num(e.occurred_at) ?? Math.floor(Date.now() / 1000)) * 1000), orderId: str(data.order_id), known: true }
	switch (type) {
		case 'payment.succeeded':
			return { ...base, effect: { kind: 'paid' } }
		case 'payment.failed':
			return { ...base, effect: { kind: 'failed', reason: str(data.reason) ?? 'The payment failed.' } }
		case 'refund.succeeded':
			return { ...base, effect: { kind: 'refund', amountRefundedMinor: num(data.amount_refunded) ?? 0, amountMinor: num(data.amount) ?? 0 } }
		case 'dispute.created':
			return { ...base, effect: { kind: 'dispute' } }
		default:
			return { ...base, known: false, effect: { kind: 'none' } }
	}
}
