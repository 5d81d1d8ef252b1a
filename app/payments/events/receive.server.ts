import type { Db } from '../../data/db.server'
import { BodyTooLargeError, readBodyWithin } from '../../security/form.server'
import { activeVerificationSecrets, CONNECTION_HANDLE, connectionSecrets, type VerificationSecrets } from '../connections.server'
import { countRejection, ingestEvent, normalizeFor } from './inbox.server'
import { verifyGeneric, verifyStripe } from './verify.server'

/** Provider event bodies are small; Stripe's largest are a few tens of kilobytes. */
export const MAX_EVENT_BYTES = 256 * 1024

const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

type Endpoint = { connection: { id: string; storeId: string; provider: string }; secrets: VerificationSecrets | null }

/**
 * The Connection and its verification secrets for an endpoint, kept for a few seconds: a
 * provider retrying a burst of deliveries does not decrypt the secrets for every one. A
 * rotation or a deactivation takes effect within ENDPOINT_CACHE_MS.
 */
export const ENDPOINT_CACHE_MS = 5_000
const endpoints = new WeakMap<Db, Map<string, { at: number; endpoint: Endpoint | null }>>()

async function endpointFor(db: Db, storeId: string, handle: string, now: number): Promise<Endpoint | null> {
	let cache = endpoints.get(db)
	if (!cache) endpoints.set(db, (cache = new Map()))
	const key = `${storeId}:${handle}`
	const hit = cache.get(key)
	if (hit && now - hit.at < ENDPOINT_CACHE_MS && now >= hit.at) return hit.endpoint
	const connection = await db.connection.findFirst({
		where: { storeId, handle, active: true, provider: { in: ['stripe', 'generic'] } },
		select: { id: true, storeId: true, provider: true },
	})
	const endpoint = connection ? { connection, secrets: await connectionSecrets<VerificationSecrets>(db, storeId, connection.id) } : null
	if (cache.size > 100) cache.clear()
	cache.set(key, { at: now, endpoint })
	return endpoint
}

/** Forgets cached endpoints (after an admin changes a Connection in this process). */
export function forgetEndpoints(db: Db) {
	endpoints.delete(db)
}

/**
 * One delivery to `/api/events/<handle>` of `storeId` (spec 6, issue 9). The signature is
 * checked over the exact bytes received, before any parsing; a refused delivery is counted
 * (its body is not kept) and answered 400/401; a verified one is recorded and applied once,
 * and a repeat answers 200 and changes nothing.
 */
export async function receiveEvent({ db, storeId, handle, request, now = Date.now() }: { db: Db; storeId: string; handle: string; request: Request; now?: number }) {
	if (request.method !== 'POST') return answer(405, { error: 'Use POST' })
	if (!CONNECTION_HANDLE.test(handle)) return answer(404, { error: 'No such endpoint' })
	const endpoint = await endpointFor(db, storeId, handle, now)
	if (!endpoint) return answer(404, { error: 'No such endpoint' })
	const { connection } = endpoint

	let raw: Buffer
	try {
		raw = Buffer.from(await readBodyWithin(request, MAX_EVENT_BYTES))
	} catch (error) {
		if (error instanceof BodyTooLargeError) return answer(413, { error: `Event bodies are limited to ${MAX_EVENT_BYTES} bytes` })
		throw error
	}
	const secrets = activeVerificationSecrets(endpoint.secrets, now)
	const verdict =
		secrets.length === 0
			? ({ ok: false, status: 401, reason: 'no verification secret is configured' } as const)
			: connection.provider === 'stripe'
				? verifyStripe(raw, request.headers.get('stripe-signature'), secrets, now)
				: verifyGeneric(raw, request.headers, secrets)
	if (!verdict.ok) {
		await countRejection(db, connection.id)
		return answer(verdict.status, { error: 'Verification failed', reason: verdict.reason })
	}
	const event = normalizeFor(connection.provider, verdict.body)
	const result = await ingestEvent(db, connection, { eventId: verdict.eventId, payload: raw.toString('utf8'), event })
	return answer(200, { received: true, duplicate: result.duplicate, outcome: result.outcome })
}
