import type { Route } from './+types/events'
import { getDb } from '../../data/db.server'
import { runtimeStoreId } from '../../data/runtime-store.server'
import { jsonError } from '../../errors.server'
import { receiveEvent } from '../../payments/events/receive.server'

/** POST /api/events/:connection: provider events for one Connection of this Store [R60-R66]. */
export async function action({ request, params }: Route.ActionArgs) {
	const db = getDb()
	return receiveEvent({ db, storeId: await runtimeStoreId(db), handle: params.connection, request })
}

export function loader() {
	return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
}
