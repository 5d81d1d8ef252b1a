import type { StoreScope } from '../../app/data/scope'
import { receiveEvent } from '../../app/payments/events/receive.server'
import { applyAllReceived } from '../../app/payments/events/worker.server'

export type Delivered = { status: number; duplicate: boolean; outcome: string }

/**
 * A provider's delivery, then the event worker's turn, as the running store takes them one after
 * the other: the intake's status, whether it was a repeat, and what the event did (its inbox row's
 * outcome once applied; `duplicate` for a repeat, which keeps no row of its own; the error code for
 * a refused delivery).
 */
export async function deliverAndApply(scope: StoreScope, args: { handle: string; request: Request; now?: number }): Promise<Delivered> {
	const eventId = await eventIdOf(args.request)
	const response = await receiveEvent(scope, args)
	const answer = (await response.json()) as { duplicate?: boolean; code?: string }
	const connectionId = await connectionOf(scope, args.handle)
	await applyAllReceived(scope, { connectionId })
	if (!response.ok) return { status: response.status, duplicate: false, outcome: answer.code ?? 'refused' }
	if (answer.duplicate) return { status: response.status, duplicate: true, outcome: 'duplicate' }
	const row = await scope.db.providerEvent.findUniqueOrThrow({
		where: { connectionId_providerEventId: { connectionId, providerEventId: eventId ?? '' } },
		select: { outcome: true },
	})
	return { status: response.status, duplicate: false, outcome: row.outcome }
}

/** The id of the Connection a handle names in the scope's Store: the worker's turn for its events alone. */
export async function connectionOf(scope: StoreScope, handle: string) {
	return (await scope.db.connection.findFirstOrThrow({ where: { storeId: scope.storeId, handle }, select: { id: true } })).id
}

/** The event id a delivery carries: Standard Webhooks' `webhook-id` header, or the body's `id`. */
async function eventIdOf(request: Request) {
	const header = request.headers.get('webhook-id')
	if (header) return header
	try {
		return ((await request.clone().json()) as { id?: string }).id ?? null
	} catch {
		return null
	}
}
