import { matchRoutes, type RouteObject } from 'react-router'

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }

/**
 * The route id a URL reaches, from the server build's route manifest: the same matching React
 * Router does, so a class is chosen by route, never by substring of a path. Single-fetch data
 * URLs (`/cart.data`, `/_root.data`) match the page they load.
 */
export function routeMatcher(manifest: Record<string, ManifestRoute | undefined>) {
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
	const routes = build(undefined)
	return (pathname: string): string | undefined => {
		let path = pathname
		if (path === '/_root.data') path = '/'
		else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length) || '/'
		return matchRoutes(routes, path)?.at(-1)?.route.id
	}
}
