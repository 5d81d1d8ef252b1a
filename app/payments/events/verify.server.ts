import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * A delivery whose verification is missing or invalid is rejected [R60]. The HMAC is computed
 * over the exact bytes received [R61]: the official libraries decode the body as UTF-8 first
 * (invalid sequences become U+FFFD, the SDK also drops a leading byte-order mark), so they would
 * accept bytes other than the ones signed (docs/decisions/029).
 */
export type Verdict = { ok: true; eventId: string | null } | { ok: false; status: 400 | 401; reason: string }

/** Stripe's limit, applied in BOTH directions (the SDK accepts timestamps from the future). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300

const refuse = (status: 400 | 401, reason: string): Verdict => ({ ok: false, status, reason })
const outsideWindow = (timestamp: number, now: number) => Math.abs(Math.floor(now / 1000) - timestamp) > TIMESTAMP_TOLERANCE_SECONDS

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

/** Stripe: HMAC-SHA256 with the secret over `${t}.` and the body. Any current secret may match (rotation overlap). */
export function verifyStripe(raw: Uint8Array, header: string | null, secrets: string[], now = Date.now()): Verdict {
	if (!header) return refuse(400, 'missing Stripe-Signature header')
	const parsed = parseStripeSignature(header)
	if ('error' in parsed) return refuse(401, parsed.error)
	if (outsideWindow(parsed.timestamp, now)) return refuse(401, 'timestamp outside the 300 s window')
	for (const secret of secrets) {
		const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.`).update(raw).digest('hex')
		if (parsed.signatures.some((signature) => sameSecret(signature, expected))) return { ok: true, eventId: null }
	}
	return refuse(401, 'no signature matches')
}

/**
 * The generic scheme (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * with space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, the key being the
 * base64 after `whsec_`), what an offline or custom integration sends. Same 300 s window.
 */
export function verifyGeneric(raw: Uint8Array, headers: Headers, secrets: string[], now = Date.now()): Verdict {
	const id = headers.get('webhook-id')
	const stamp = headers.get('webhook-timestamp')
	const header = headers.get('webhook-signature')
	if (!id || !stamp || !header) return refuse(400, 'missing webhook-id, webhook-timestamp or webhook-signature header')
	const timestamp = Number.parseInt(stamp, 10)
	if (!Number.isSafeInteger(timestamp) || timestamp < 0) return refuse(401, 'no timestamp in webhook-timestamp')
	if (outsideWindow(timestamp, now)) return refuse(401, 'timestamp outside the 300 s window')
	const signatures = header.split(' ').flatMap((entry) => {
		const [version, signature] = entry.split(',')
		return version === 'v1' && signature ? [signature] : []
	})
	for (const secret of secrets) {
		const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64')
		if (key.length === 0) continue
		const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(raw).digest('base64')
		if (signatures.some((signature) => sameSecret(signature, expected))) return { ok: true, eventId: id }
	}
	return refuse(401, 'no signature matches')
}

/** Constant-time comparison for secrets the store compares itself. */
export function sameSecret(a: string, b: string) {
	const left = Buffer.from(a)
	const right = Buffer.from(b)
	return left.length === right.length && timingSafeEqual(left, right)
}
