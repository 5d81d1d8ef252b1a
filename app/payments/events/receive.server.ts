import type { Db } from '../../data/db.server'
import { jsonError, jsonResponse } from '../../errors.server'
import { BodyTooLargeError, readBodyWithin } from '../../security/body-limit.server'
import { activeVerificationSecrets, CONNECTION_HANDLE, connectionSecrets, type VerificationSecrets } from '../connections.server'
import { parseEventBody } from './body'
import { countRejection, recordEvent } from './inbox.server'
import { normalizeFor } from './normalize'
import { verifyGeneric, verifyStripe } from './verify.server'
import { wakeEventWorker } from './worker.server'
import type { StoreScope } from '../../data/scope'

/** Provider event bodies are small; Stripe's largest are a few tens of kilobytes. */
export const MAX_EVENT_BYTES = 256 * 1024

type Endpoint = { connection: { id: string; storeId: string; provider: string }; secrets: VerificationSecrets | null }

/**
 * The Connection and its verification secrets for an endpoint, kept for a few seconds: a
 * provider retrying a burst of deliveries does not decrypt the secrets for every one. A
 * rotation or a deactivation takes effect within ENDPOINT_CACHE_MS.
 */
export const ENDPOINT_CACHE_MS = 5_000
const endpoints = new WeakMap<Db, Map<string, { at: number; endpoint: Endpoint | null }>>()

async function endpointFor(scope: StoreScope, handle: string, now: number): Promise<Endpoint | null> {
	const { db, storeId } = scope
	let cache = endpoints.get(db)
	if (!cache) endpoints.set(db, (cache = new Map()))
	const key = `${storeId}:${handle}`
	const hit = cache.get(key)
	if (hit && now - hit.at < ENDPOINT_CACHE_MS && now >= hit.at) return hit.endpoint
	const connection = await db.connection.findFirst({
		where: { storeId, handle, active: true, provider: { in: ['stripe', 'generic'] } },
		select: { id: true, storeId: true, provider: true },
	})
	const endpoint = connection ? { connection, secrets: await connectionSecrets<VerificationSecrets>(scope, connection.id) } : null
	if (cache.size > 100) cache.clear()
	cache.set(key, { at: now, endpoint })
	return endpoint
}

/** Forgets cached endpoints (after an admin changes a Connection in this process). */
export function forgetEndpoints(db: Db) {
	endpoints.delete(db)
}

/**
 * One delivery to `/api/events/<handle>` of `storeId` [R60-R63]: verify, keep, answer. The
 * signature is checked over the exact bytes received, before any parsing; a refused delivery (bad
 * verification, or a verified body that is not a JSON event) is counted, its body not kept, and
 * answered 400/401; a verified one is kept byte for byte and answered 200, and the event worker
 * applies it (worker.server.ts); a repeat answers 200 and changes nothing.
 */
export async function receiveEvent(scope: StoreScope, { handle, request, now = Date.now() }: { handle: string; request: Request; now?: number }) {
	const { db } = scope
	if (request.method !== 'POST') return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
	if (!CONNECTION_HANDLE.test(handle)) return jsonError(404, 'NOT_FOUND', 'No such endpoint.')
	const endpoint = await endpointFor(scope, handle, now)
	if (!endpoint) return jsonError(404, 'NOT_FOUND', 'No such endpoint.')
	const { connection } = endpoint

	let raw: Buffer
	try {
		const bytes = await readBodyWithin(request, MAX_EVENT_BYTES)
		raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	} catch (error) {
		if (error instanceof BodyTooLargeError) return jsonError(413, 'PAYLOAD_TOO_LARGE', `Event bodies are limited to ${MAX_EVENT_BYTES} bytes.`)
		throw error
	}
	const secrets = activeVerificationSecrets(endpoint.secrets, now)
	const verdict =
		secrets.length === 0
			? ({ ok: false, status: 401, reason: 'no verification secret is configured', code: 'VERIFICATION_FAILED' } as const)
			: connection.provider === 'stripe'
				? verifyStripe(raw, request.headers.get('stripe-signature'), secrets, now)
				: verifyGeneric(raw, request.headers, secrets, now)
	if (!verdict.ok) {
		await countRejection(db, connection.id)
		return jsonError(verdict.status, verdict.code, `Verification failed: ${verdict.reason}.`)
	}
	const body = parseEventBody(raw)
	const eventId = verdict.eventId ?? (typeof body?.id === 'string' && body.id.length > 0 ? body.id : null)
	if (!body || !eventId) {
		await countRejection(db, connection.id)
		return jsonError(400, 'INVALID_EVENT', 'The signed body is not a JSON event object with an id.')
	}
	const result = await recordEvent(scope, connection, { eventId, payload: raw, event: normalizeFor(connection.provider, body) })
	if (!result.duplicate) wakeEventWorker(db)
	return jsonResponse({ received: true, duplicate: result.duplicate, outcome: result.outcome }, { headers: { 'Cache-Control': 'no-store' } })
}
