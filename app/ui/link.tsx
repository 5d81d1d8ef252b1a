import { useContext } from 'react'
import { Link as RouterLink, type LinkProps, UNSAFE_NavigationContext as NavigationContext } from 'react-router'

/**
 * React Router's `<Link>`, rendered on the server without its machinery where that changes nothing.
 *
 * In the browser this is React Router's own `<Link>`: client-side navigation, pending states,
 * everything as before. On the server a link can only ever be its `<a>`: no click happens, no
 * prefetch runs. For the common case (a path of the store's own, written out from `/`, with no
 * behaviour props), the server writes exactly the element `<Link>` would write, without its
 * hooks and its two path resolutions (each through a JSON copy of the route matches): under
 * 1 µs a link instead of about 11 (docs/performance.md). Anything else (a relative or
 * external target, a search or hash, prefetch, replace, state, a basename) is rendered by `<Link>`
 * itself.
 * `app/ui/link.test.ts` fails if the two ever write different markup.
 */
export const Link: typeof RouterLink = typeof document === 'undefined' ? (ServerLink as typeof RouterLink) : RouterLink

/** A path the server may write as it is: from the root, no `//`, no `.` segments, no search or hash. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-]+\/?)*$/

/** Props that only pass through to the `<a>`; any other prop needs `<Link>` itself. */
const passesThrough = (name: string) =>
	name === 'children' || name === 'className' || name === 'id' || name === 'title' || name.startsWith('aria-') || name.startsWith('data-')

function ServerLink(props: LinkProps) {
	const { basename } = useContext(NavigationContext)
	const to = props.to
	if (basename !== '/' || typeof to !== 'string' || !PLAIN_PATH.test(to)) return <RouterLink {...props} />
	// One loop, no rest/spread of `props`: this runs for every link of every page.
	const anchor: Record<string, unknown> = {}
	for (const name in props) {
		if (name === 'to') continue
		if (!passesThrough(name)) return <RouterLink {...props} />
		anchor[name] = props[name as keyof LinkProps]
	}
	anchor.href = to
	anchor['data-discover'] = 'true'
	return <a {...anchor} />
}
