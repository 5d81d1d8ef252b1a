import type { Params } from 'react-router'
import type { DirectAnswer, DirectRequest } from './direct.server'
import { runtimeRepositories } from './repositories.server'

export type DirectHandler = (args: { request: DirectRequest; params: Params; context: unknown }) => Promise<DirectAnswer>

/** POST /api/events/:connection: provider events for one Connection of this Store [R60-R66]. */
export const serveProviderEvents: DirectHandler = ({ request, params }) => runtimeRepositories().events.receive(params.connection ?? '', request)

/**
 * The direct routes' handlers, by route id: the server calls them with Node's own request
 * (scripts/lib/direct-routes.ts, docs/decisions/066, 068). They live here, reached through the
 * server entry, because a route module may export nothing but its page's and React Router's
 * own functions: anything else would be sent to the browser. A route listed here marks itself
 * `handle = { direct: true }` and serves the same handler from its action for what React Router
 * still serves itself (`scripts/lib/direct-routes.test.ts` holds the two lists together).
 */
export const directHandlers: Readonly<Record<string, DirectHandler>> = {
	'routes/api/events': serveProviderEvents,
}
