import { createHmac, randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'

/** A Stripe event body as Stripe sends it, compact JSON. */
export function stripeEvent(
	type: string,
	object: Record<string, unknown>,
	{ id = `evt_${randomBytes(8).toString('hex')}`, created = Math.floor(Date.now() / 1000) } = {},
) {
	return JSON.stringify({ id, object: 'event', type, created, api_version: '2025-01-01', data: { object } })
}

/** The Stripe-Signature header for `payload`, signed with `secret` at `timestamp` (s), by the SDK. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
	return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })
}

/**
 * Stripe's HMAC over exact bytes (the SDK's test helper takes a string, so it cannot sign a
 * body that is not UTF-8): `t=<timestamp>,v1=<hex HMAC-SHA256 of "t." + bytes>`.
 */
export function stripeSignatureOfBytes(payload: Uint8Array, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
	return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex')}`
}

export function stripeRequest(url: string, payload: string | Uint8Array, signature: string | null) {
	return new Request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
		body: typeof payload === 'string' ? payload : new Uint8Array(payload),
	})
}

/** A Standard Webhooks delivery (the generic scheme), signed by the `standardwebhooks` library. */
export function genericRequest(url: string, body: unknown, secret: string, { id = `msg_${randomBytes(8).toString('hex')}`, timestamp = new Date() } = {}) {
	const payload = JSON.stringify(body)
	return genericDelivery(url, payload, id, timestamp, new Webhook(secret).sign(id, timestamp, payload))
}

/** A Standard Webhooks delivery of exact bytes, signed over those bytes (for bodies that are not UTF-8). */
export function genericRequestOfBytes(
	url: string,
	payload: Uint8Array,
	secret: string,
	{ id = `msg_${randomBytes(8).toString('hex')}`, timestamp = new Date() } = {},
) {
	const seconds = Math.floor(timestamp.getTime() / 1000)
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
	const signature = `v1,${createHmac('sha256', key).update(`${id}.${seconds}.`).update(payload).digest('base64')}`
	return genericDelivery(url, payload, id, timestamp, signature)
}

function genericDelivery(url: string, payload: string | Uint8Array, id: string, timestamp: Date, signature: string) {
	return new Request(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
			'webhook-signature': signature,
		},
		body: typeof payload === 'string' ? payload : new Uint8Array(payload),
	})
}

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`

/**
 * Stripe events of a Checkout payment, shaped as Stripe sends them: the Session the store
 * started (its id recorded on the Order), the PaymentIntent it created, and the Charge.
 */
export const stripeEvents = {
	sessionCompleted(o: { sessionId: string; paymentIntentId: string; orderId: string; amount: number; currency?: string; paid?: boolean }) {
		return stripeEvent('checkout.session.completed', {
			id: o.sessionId,
			object: 'checkout.session',
			payment_intent: o.paymentIntentId,
			payment_status: o.paid === false ? 'unpaid' : 'paid',
			amount_total: o.amount,
			currency: o.currency ?? 'usd',
			client_reference_id: o.orderId,
			metadata: { orderId: o.orderId },
		})
	},
	intentSucceeded(o: { paymentIntentId: string; amountReceived: number; currency?: string; orderId?: string }) {
		return stripeEvent('payment_intent.succeeded', {
			id: o.paymentIntentId,
			object: 'payment_intent',
			amount: o.amountReceived,
			amount_received: o.amountReceived,
			currency: o.currency ?? 'usd',
			metadata: o.orderId ? { orderId: o.orderId } : {},
		})
	},
	chargeRefunded(o: { paymentIntentId: string; amountRefunded: number; amount?: number; currency?: string; orderId?: string }) {
		return stripeEvent('charge.refunded', {
			id: `ch_${randomBytes(8).toString('hex')}`,
			object: 'charge',
			payment_intent: o.paymentIntentId,
			amount: o.amount ?? o.amountRefunded,
			amount_refunded: o.amountRefunded,
			currency: o.currency ?? 'usd',
			metadata: o.orderId ? { orderId: o.orderId } : {},
		})
	},
}
