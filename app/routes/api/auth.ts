import type { Route } from './+types/auth'
import { getAuth } from '../../auth/auth.server'

/** better-auth owns everything under /api/auth/* (spec 4); the request is handed over unread. */
export function loader({ request }: Route.LoaderArgs) {
	return getAuth().handler(request)
}

export function action({ request }: Route.ActionArgs) {
	return getAuth().handler(request)
}
