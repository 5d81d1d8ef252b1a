import { isUtf8 } from 'node:buffer'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { stripeSdk } from '../providers/stripe.server'

/**
 * A delivery whose verification is missing or invalid is rejected [R60]. The signatures are
 * checked by the providers' own libraries (the `stripe` SDK, `standardwebhooks`). Both hash the
 * body's UTF-8 reading, so the store first refuses a body that is not exact UTF-8 text (invalid
 * sequences, or a leading byte-order mark the decoder would drop): for every body that passes,
 * the UTF-8 reading round-trips to the very bytes received, and the signature the library
 * checks is the signature of those bytes [R61] (docs/decisions/029). JSON is UTF-8 by
 * definition, so no genuine provider event is refused by this.
 */
export type Verdict = { ok: true; eventId: string | null } | { ok: false; status: 400 | 401; reason: string; code: 'VERIFICATION_FAILED' | 'INVALID_EVENT' }

/** Stripe's limit, applied in BOTH directions (the SDK accepts timestamps from the future). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300

const refuse = (status: 400 | 401, reason: string, code: 'VERIFICATION_FAILED' | 'INVALID_EVENT' = 'VERIFICATION_FAILED'): Verdict => ({
	ok: false,
	status,
	reason,
	code,
})
const outsideWindow = (timestamp: number, now: number) => Math.abs(Math.floor(now / 1000) - timestamp) > TIMESTAMP_TOLERANCE_SECONDS

/** Whether the libraries' UTF-8 reading of `raw` is exactly `raw` (no replacement, no dropped BOM). */
export function isExactText(raw: Uint8Array) {
	return isUtf8(raw) && !(raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf)
}
const NOT_TEXT = 'the body is not UTF-8 text'

/**
 * `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]`, parsed once and as the SDK parses it (entries
 * split on ",", key and value on "=", `t` read with parseInt, `v1` values kept) — except that a
 * header with more than one `t` is refused: the SDK verifies against the last one, so a window
 * checked against any other would not be the signature's window.
 */
export function parseStripeSignature(header: string): { timestamp: number; signatures: string[] } | { error: string } {
	const timestamps: number[] = []
	const signatures: string[] = []
	for (const item of header.split(',')) {
		const [key, value] = item.split('=')
		if (key === 't') timestamps.push(Number.parseInt(value ?? '', 10))
		if (key === 'v1' && value) signatures.push(value)
	}
	const [timestamp] = timestamps
	if (timestamps.length > 1) return { error: 'more than one t= in the signature header' }
	if (timestamp === undefined || !Number.isSafeInteger(timestamp) || timestamp < 0) return { error: 'no timestamp in the signature header' }
	if (signatures.length === 0) return { error: 'no v1 signature in the header' }
	return { timestamp, signatures }
}

/**
 * Stripe: the header is parsed once (above) for the window, then the SDK checks the signature
 * over the body. Any of the Connection's current secrets may match (rotation overlap).
 */
export function verifyStripe(raw: Uint8Array, header: string | null, secrets: string[], now = Date.now()): Verdict {
	if (!header) return refuse(400, 'missing Stripe-Signature header')
	const parsed = parseStripeSignature(header)
	if ('error' in parsed) return refuse(401, parsed.error)
	if (outsideWindow(parsed.timestamp, now)) return refuse(401, 'timestamp outside the 300 s window')
	if (!isExactText(raw)) return refuse(400, NOT_TEXT, 'INVALID_EVENT')
	const Stripe = stripeSdk()
	const signature = Stripe.webhooks.signature
	if (!signature) throw new Error('the stripe SDK offers no webhook signature check')
	for (const secret of secrets) {
		try {
			// The window is ours (above, both directions); the SDK's own check is then only the signature.
			signature.verifyHeader(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), header, secret, Number.MAX_SAFE_INTEGER)
			return { ok: true, eventId: null }
		} catch (error) {
			if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error
		}
	}
	return refuse(401, 'no signature matches')
}

/**
 * The generic scheme (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * with space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`), what an offline or custom
 * integration sends, checked by the `standardwebhooks` library. Same 300 s window, both directions.
 */
export function verifyGeneric(raw: Uint8Array, headers: Pick<Headers, 'get'>, secrets: string[], now = Date.now()): Verdict {
	const id = headers.get('webhook-id')
	const stamp = headers.get('webhook-timestamp')
	const signature = headers.get('webhook-signature')
	if (!id || !stamp || !signature) return refuse(400, 'missing webhook-id, webhook-timestamp or webhook-signature header')
	const timestamp = Number.parseInt(stamp, 10)
	if (!Number.isSafeInteger(timestamp) || timestamp < 0) return refuse(401, 'no timestamp in webhook-timestamp')
	if (outsideWindow(timestamp, now)) return refuse(401, 'timestamp outside the 300 s window')
	if (!isExactText(raw)) return refuse(400, NOT_TEXT, 'INVALID_EVENT')
	const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
	const wanted = { 'webhook-id': id, 'webhook-timestamp': stamp, 'webhook-signature': signature }
	for (const secret of secrets) {
		const webhook = webhookFor(secret)
		if (!webhook) continue
		try {
			// The body is parsed later, once, by the receiver: here only the signature is checked.
			webhook.verify(body, wanted, { jsonParse: false })
			return { ok: true, eventId: id }
		} catch (error) {
			if (!(error instanceof WebhookVerificationError)) throw error
		}
	}
	return refuse(401, 'no signature matches')
}

/** The library's verifier for a stored secret; a malformed one (empty, not base64) matches nothing. */
function webhookFor(secret: string) {
	try {
		return new Webhook(secret)
	} catch {
		return null
	}
}
