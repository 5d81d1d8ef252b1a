import { matchRoutes, type RouteObject } from 'react-router'

const CACHE_SIZE = 2_000

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }

/** The route tree React Router builds from a server build's manifest: children under their parents. */
export function routeTreeOf(manifest: Readonly<Record<string, ManifestRoute | undefined>>): RouteObject[] {
	const byParent = new Map<string | undefined, ManifestRoute[]>()
	for (const route of Object.values(manifest)) {
		if (!route) continue
		byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route])
	}
	const build = (parentId: string | undefined): RouteObject[] =>
		(byParent.get(parentId) ?? []).map((route) =>
			route.index
				? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
				: { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: build(route.id) },
		)
	return build(undefined)
}

/**
 * The route id a URL reaches, from the server build's route manifest: the same matching React
 * Router does, so a class is chosen by route, never by substring of a path. Single-fetch data
 * URLs (`/cart.data`, `/_root.data`) match the page they load.
 */
export function routeMatcher(manifest: Record<string, ManifestRoute | undefined>) {
	const routes = routeTreeOf(manifest)
	// React Router flattens and ranks the whole route tree on every match; the answer for a
	// path never changes, so recent ones are remembered, at most CACHE_SIZE of them.
	const cache = new Map<string, string | undefined>()
	return (pathname: string): string | undefined => {
		if (cache.has(pathname)) return cache.get(pathname)
		let path = pathname
		if (path === '/_root.data') path = '/'
		else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length) || '/'
		const id = matchRoutes(routes, path)?.at(-1)?.route.id
		if (pathname.length > 256) return id
		if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
		cache.set(pathname, id)
		return id
	}
}
