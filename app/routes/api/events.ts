import type { Route } from './+types/events'
import { getDb } from '../../data/db.server'
import { runtimeStoreId } from '../../data/runtime-store.server'
import { receiveEvent } from '../../payments/events/receive.server'

/** POST /api/events/:connection: provider events for one Connection of this Store (issue 9). */
export async function action({ request, params }: Route.ActionArgs) {
	const db = getDb()
	return receiveEvent({ db, storeId: await runtimeStoreId(db), handle: params.connection, request })
}

export function loader() {
	return Response.json({ error: 'Use POST' }, { status: 405 })
}
