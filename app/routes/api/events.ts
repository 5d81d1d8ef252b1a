import type { Route } from './+types/events'
import { jsonError } from '../../errors.server'
import { runtimeRepositories } from '../../repositories.server'

/**
 * Served directly, without React Router's request pipeline (scripts/lib/direct-routes.ts): a
 * provider's delivery reads no viewer, flash notice or form refusal, and its answer is a few
 * dozen bytes of JSON (docs/decisions/066).
 */
export const handle = { direct: true }

/** POST /api/events/:connection: provider events for one Connection of this Store [R60-R66]. */
export async function action({ request, params }: Route.ActionArgs) {
	return runtimeRepositories().events.receive(params.connection, request)
}

export function loader() {
	return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
}
