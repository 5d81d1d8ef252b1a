import { getDb } from '../../data/db.server'
import { runtimeStoreId } from '../../data/runtime-store.server'

/** For the platform's health check: the database answers and the Store exists. */
export async function loader() {
	try {
		await runtimeStoreId(getDb())
		return new Response('ok', { headers: { 'Cache-Control': 'no-store' } })
	} catch (error) {
		console.warn('[healthz]', (error as Error).name)
		return new Response('unavailable', { status: 503 })
	}
}
