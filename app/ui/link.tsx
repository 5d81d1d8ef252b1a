import { useContext } from 'react'
import { Link as RouterLink, type LinkProps, UNSAFE_NavigationContext as NavigationContext } from 'react-router'

/**
 * React Router's `<Link>`, rendered on the server without its machinery where that changes nothing.
 *
 * In the browser this is React Router's own `<Link>`: client-side navigation, pending states,
 * everything as before. On the server a link can only ever be its `<a>`: no click happens, no
 * prefetch runs. For the common case (a path of the store's own, written out from `/`, with no
 * behaviour props), the server writes exactly the element `<Link>` would write, without its
 * hooks and its two path resolutions (each through a JSON copy of the route matches): about a
 * tenth of a millisecond on a product page of six links (docs/performance.md). Anything else (a relative or
 * external target, a search or hash, prefetch, replace, state, a basename) is rendered by `<Link>`
 * itself.
 * `app/ui/link.test.ts` fails if the two ever write different markup.
 */
export const Link: typeof RouterLink = typeof document === 'undefined' ? (ServerLink as typeof RouterLink) : RouterLink

/** A path the server may write as it is: from the root, no `//`, no `.` segments, no search or hash. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-]+\/?)*$/

/** Props that only pass through to the `<a>`; any other prop needs `<Link>` itself. */
const passesThrough = (name: string) =>
	name === 'to' || name === 'children' || name === 'className' || name === 'id' || name === 'title' || name.startsWith('aria-') || name.startsWith('data-')

function ServerLink(props: LinkProps) {
	const { basename } = useContext(NavigationContext)
	const { to, ...rest } = props
	if (basename !== '/' || typeof to !== 'string' || !PLAIN_PATH.test(to) || !Object.keys(props).every(passesThrough)) return <RouterLink {...props} />
	return <a {...rest} href={to} data-discover="true" />
}
