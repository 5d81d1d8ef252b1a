import { data, Form } from 'react-router'
import type { Route } from './+types/search'
import { getViewer } from '../../auth/guards.server'
import { MAX_SEARCH_LENGTH, searchTerms } from '../../rules/search-terms'
import { SEARCH_SORTS, sortFrom, sortOptions } from '../../catalog/sort'
import { repositoriesFor } from '../../repositories.server'
import { pageParam } from '../../security/form.server'
import { Pager } from '../../ui/pager'
import { ProductGrid, SortSelect } from '../../ui/catalog-tools'

export function meta({ data: found }: Route.MetaArgs) {
	return [{ title: found?.q ? `Search: ${found.q}` : 'Search' }, { name: 'robots', content: 'noindex' }]
}

/** [R110] Search over names and descriptions; an over-long question is refused, not cut. */
export async function loader(args: Route.LoaderArgs) {
	const params = new URL(args.request.url).searchParams
	const q = (params.get('q') ?? '').trim()
	const sort = sortFrom(params.get('sort'), SEARCH_SORTS)
	if (q.length > MAX_SEARCH_LENGTH) {
		return data({ q: '', sort, tooLong: true, products: [], total: 0, page: 1, pages: 1 }, { status: 400 })
	}
	const terms = searchTerms(q)
	if (terms.length === 0) return { q, sort, tooLong: false, products: [], total: 0, page: 1, pages: 1 }
	const viewer = await getViewer(args)
	const found = await repositoriesFor(viewer).catalog.search({ terms, sort, page: pageParam(args.request) })
	return { q, sort, tooLong: false, ...found }
}

export default function Search({ loaderData }: Route.ComponentProps) {
	const { q, sort, tooLong, products, total, page, pages } = loaderData
	return (
		<section>
			<h1>Search</h1>
			<Form method="get" className="catalog-tools" role="search">
				<label>
					Search for
					<input type="search" name="q" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} />
				</label>
				<SortSelect options={sortOptions(SEARCH_SORTS)} value={sort} />
				<button type="submit">Search</button>
			</Form>
			{tooLong ? (
				<p className="form-error" role="alert">
					That search is too long: use at most {MAX_SEARCH_LENGTH} characters.
				</p>
			) : q === '' ? (
				<p className="hint">Type a word from a product&rsquo;s name or description.</p>
			) : total === 0 ? (
				<p data-testid="search-empty">No products match &ldquo;{q}&rdquo;.</p>
			) : (
				<>
					<p data-testid="search-count">
						{total === 1 ? '1 product matches' : `${total} products match`} &ldquo;{q}&rdquo;.
					</p>
					<ProductGrid products={products} />
				</>
			)}
			<Pager page={page} pages={pages} />
		</section>
	)
}
