import { timingSafeEqual } from 'node:crypto'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { stripeSdk } from '../providers/stripe.server'

/** Spec 6.1: a delivery whose verification is missing or invalid is rejected. */
export type Verdict = { ok: true; body: unknown; eventId: string } | { ok: false; status: 400 | 401; reason: string }

/** Stripe's own limit, applied in BOTH directions (the SDK accepts timestamps from the future). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300

/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]`, HMAC-SHA256 over `${t}.${raw body}`.
 * The official SDK checks the signature over the exact bytes; the store adds the two-sided
 * timestamp window. Any of the Connection's current secrets may match (rotation overlap).
 */
export function verifyStripe(raw: Buffer, header: string | null, secrets: string[], now = Date.now()): Verdict {
	if (!header) return { ok: false, status: 400, reason: 'missing Stripe-Signature header' }
	const timestamp = Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(header)?.[1])
	if (!Number.isFinite(timestamp)) return { ok: false, status: 401, reason: 'no timestamp in the signature header' }
	if (Math.abs(now / 1000 - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) {
		return { ok: false, status: 401, reason: 'timestamp outside the 300 s window' }
	}
	const Stripe = stripeSdk()
	for (const secret of secrets) {
		try {
			// Tolerance is ours (above); the SDK's check is then only the signature, in constant time.
			const event = Stripe.webhooks.constructEvent(raw, header, secret, Number.MAX_SAFE_INTEGER)
			return { ok: true, body: event, eventId: event.id }
		} catch (error) {
			if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error
		}
	}
	return { ok: false, status: 401, reason: 'no signature matches' }
}

/**
 * A generic scheme (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature with
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>`), what an offline or custom integration sends.
 */
export function verifyGeneric(raw: Buffer, headers: Headers, secrets: string[]): Verdict {
	const id = headers.get('webhook-id')
	const wanted = { 'webhook-id': id ?? '', 'webhook-timestamp': headers.get('webhook-timestamp') ?? '', 'webhook-signature': headers.get('webhook-signature') ?? '' }
	if (!id || !wanted['webhook-timestamp'] || !wanted['webhook-signature']) {
		return { ok: false, status: 400, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' }
	}
	for (const secret of secrets) {
		try {
			const body = new Webhook(secret).verify(raw, wanted)
			return { ok: true, body, eventId: id }
		} catch (error) {
			if (!(error instanceof WebhookVerificationError)) return { ok: false, status: 400, reason: 'the body is not JSON' }
		}
	}
	return { ok: false, status: 401, reason: 'no signature matches, or the timestamp is outside the 300 s window' }
}

/** Constant-time comparison for secrets the store compares itself. */
export function sameSecret(a: string, b: string) {
	const left = Buffer.from(a)
	const right = Buffer.from(b)
	return left.length === right.length && timingSafeEqual(left, right)
}
