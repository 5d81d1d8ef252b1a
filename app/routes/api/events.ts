import type { Route } from './+types/events'
import { jsonError } from '../../errors.server'
import { runtimeRepositories } from '../../repositories.server'

/**
 * POST /api/events/:connection: provider events for one Connection of this Store [R60-R66].
 * Verified over the exact bytes, kept in the inbox and answered; the event worker applies them.
 */
export async function action({ request, params }: Route.ActionArgs) {
	return runtimeRepositories().events.receive(params.connection, request)
}

export function loader() {
	return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
}
