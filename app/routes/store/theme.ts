import type { Route } from './+types/theme'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { normaliseAccent, themeCss } from '../../store/identity'

/**
 * GET /theme.css?v=<colour> [R120]: the Store's accent colour as a stylesheet from the store's own
 * origin, so the CSP keeps `style-src 'self'` and no page carries an inline style. The colour
 * comes from the Store's row (checked when it was saved), never from the query: `v` only names
 * the version a page linked, so a page with the current colour may keep it for a year, and any
 * other asks again.
 */
export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const { accentColor } = await repositoriesFor(viewer).store.profile()
	const colour = accentColor ? normaliseAccent(accentColor) : null
	const asked = new URL(args.request.url).searchParams.get('v')
	const current = colour !== null && asked === colour.slice(1)
	return new Response(colour ? themeCss(colour) : '', {
		headers: {
			'Content-Type': 'text/css; charset=utf-8',
			'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
		},
	})
}
