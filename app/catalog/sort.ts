/**
 * How shoppers can order the catalog and search results. Shared by the server (which maps a
 * sort to its ORDER BY) and the pages (which offer the choices), so it imports nothing.
 * An unknown `sort` in the address falls back to the default, as an unknown `page` falls
 * back to the first: a stale or edited link still shows the catalog.
 */
export const CATALOG_SORTS = ['newest', 'price-asc', 'price-desc', 'name'] as const
export type CatalogSort = (typeof CATALOG_SORTS)[number]

export const SEARCH_SORTS = ['relevance', ...CATALOG_SORTS] as const
export type SearchSort = (typeof SEARCH_SORTS)[number]

export const SORT_LABELS: Readonly<Record<SearchSort, string>> = {
	relevance: 'Best match',
	newest: 'Newest',
	'price-asc': 'Price: low to high',
	'price-desc': 'Price: high to low',
	name: 'Name: A to Z',
}

export function sortFrom<S extends string>(value: string | null, allowed: readonly [S, ...S[]]): S {
	return allowed.includes(value as S) ? (value as S) : allowed[0]
}

/** The choices a page offers, in order, with their labels. */
export function sortOptions(sorts: readonly SearchSort[]) {
	return sorts.map((sort) => ({ value: sort, label: SORT_LABELS[sort] }))
}
