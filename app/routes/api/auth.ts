import type { Route } from './+types/auth'
import { handleAuthRequest } from '../../auth/auth-endpoint.server'

/** better-auth owns everything under /api/auth/* [R4], behind the store's own limits. */
export function loader({ request }: Route.LoaderArgs) {
	return handleAuthRequest(request)
}

export function action({ request }: Route.ActionArgs) {
	return handleAuthRequest(request)
}
