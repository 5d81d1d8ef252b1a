import { getConfig } from '../../config/env.server'
import { jsonResponse } from '../../errors.server'
import { dependencyChecks, readinessProbe } from '../../health/readiness.server'

/** One probe per process (kept on globalThis so dev-server reloads reuse its connections). */
const globalForReadiness = globalThis as unknown as { storeReadiness?: ReturnType<typeof readinessProbe> }

/**
 * GET /readyz [R81]: 200 when every dependency this store uses answers, 503 naming the one that
 * does not (`{ status, checks: { database: 'down', … } }`). What a load balancer routes by.
 */
export async function loader() {
	globalForReadiness.storeReadiness ??= readinessProbe({ checks: dependencyChecks(getConfig()) })
	const readiness = await globalForReadiness.storeReadiness()
	return jsonResponse(readiness, {
		status: readiness.status === 'ready' ? 200 : 503,
		headers: { 'Cache-Control': 'no-store' },
	})
}
