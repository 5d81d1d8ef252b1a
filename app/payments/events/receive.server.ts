import type { Db } from '../../data/db.server'
import { BodyTooLargeError, readBodyWithin } from '../../security/form.server'
import { activeVerificationSecrets, CONNECTION_HANDLE, connectionSecrets, type VerificationSecrets } from '../connections.server'
import { countRejection, ingestEvent, normalizeFor } from './inbox.server'
import { verifyGeneric, verifyStripe } from './verify.server'

/** Provider event bodies are small; Stripe's largest are a few tens of kilobytes. */
export const MAX_EVENT_BYTES = 256 * 1024

const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

/**
 * One delivery to `/api/events/<handle>` of `storeId` (spec 6, issue 9). The signature is
 * checked over the exact bytes received, before any parsing; a refused delivery is counted
 * (its body is not kept) and answered 400/401; a verified one is recorded and applied once,
 * and a repeat answers 200 and changes nothing.
 */
export async function receiveEvent({ db, storeId, handle, request, now = Date.now() }: { db: Db; storeId: string; handle: string; request: Request; now?: number }) {
	if (request.method !== 'POST') return answer(405, { error: 'Use POST' })
	if (!CONNECTION_HANDLE.test(handle)) return answer(404, { error: 'No such endpoint' })
	const connection = await db.connection.findFirst({
		where: { storeId, handle, active: true, provider: { in: ['stripe', 'generic'] } },
		select: { id: true, storeId: true, provider: true },
	})
	if (!connection) return answer(404, { error: 'No such endpoint' })

	let raw: Buffer
	try {
		raw = Buffer.from(await readBodyWithin(request, MAX_EVENT_BYTES))
	} catch (error) {
		if (error instanceof BodyTooLargeError) return answer(413, { error: `Event bodies are limited to ${MAX_EVENT_BYTES} bytes` })
		throw error
	}
	const secrets = activeVerificationSecrets(await connectionSecrets<VerificationSecrets>(db, storeId, connection.id), now)
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
