import type { Route } from './+types/events'
import { directRequestOf, responseOf } from '../../direct.server'
import { serveProviderEvents } from '../../direct-handlers.server'
import { jsonError } from '../../errors.server'

/**
 * Served directly, from Node's own request, without React Router's request pipeline
 * (scripts/lib/direct-routes.ts, app/direct-handlers.server.ts): a provider's delivery reads
 * no viewer, flash notice or form refusal, and its answer is a few dozen bytes of JSON
 * (docs/decisions/066, 068).
 */
export const handle = { direct: true }

/** The same endpoint, for what React Router serves itself (a data request) [R60-R66]. */
export async function action({ request, params, context }: Route.ActionArgs) {
	return responseOf(await serveProviderEvents({ request: directRequestOf(request), params, context }))
}

export function loader() {
	return jsonError(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' })
}
