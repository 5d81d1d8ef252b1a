import type { RouteConfigEntry } from '@react-router/dev/routes'

export type ManifestEntry = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; module: Record<string, unknown> }

/**
 * The manifest React Router's build makes of a route config (app/routes.ts): ids from the module
 * files, parents by nesting, under a root of path ''. Each module is stood in for by what
 * `moduleFor` gives its id (nothing by default).
 */
export function manifestOf(entries: RouteConfigEntry[], moduleFor: (id: string) => Record<string, unknown> = () => ({})): Record<string, ManifestEntry> {
	const manifest: Record<string, ManifestEntry> = { root: { id: 'root', path: '', module: moduleFor('root') } }
	const add = (list: RouteConfigEntry[], parentId: string) => {
		for (const entry of list) {
			const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, '')
			manifest[id] = { id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive, module: moduleFor(id) }
			if (entry.children) add(entry.children, id)
		}
	}
	add(entries, 'root')
	return manifest
}
