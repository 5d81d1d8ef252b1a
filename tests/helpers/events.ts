import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'

/** A Stripe event body as Stripe sends it, compact JSON. */
export function stripeEvent(type: string, object: Record<string, unknown>, { id = `evt_${randomBytes(8).toString('hex')}`, created = Math.floor(Date.now() / 1000) } = {}) {
	return JSON.stringify({ id, object: 'event', type, created, api_version: '2025-01-01', data: { object } })
}

/** The Stripe-Signature header for `payload`, signed with `secret` at `timestamp` (s). */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
	return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })
}

export function stripeRequest(url: string, payload: string, signature: string | null) {
	return new Request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
		body: payload,
	})
}

/** A Standard Webhooks delivery (the generic scheme). */
export function genericRequest(url: string, body: unknown, secret: string, { id = `msg_${randomBytes(8).toString('hex')}`, timestamp = new Date() } = {}) {
	const payload = JSON.stringify(body)
	const signature = new Webhook(secret).sign(id, timestamp, payload)
	return new Request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature },
		body: payload,
	})
}

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`
