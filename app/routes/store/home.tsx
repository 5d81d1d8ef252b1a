import { Form, Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { getViewer } from '../../auth/guards.server'
import { CATALOG_SORTS, sortFrom, sortOptions } from '../../catalog/sort'
import { repositoriesFor } from '../../repositories.server'
import type { loader as rootLoader } from '../../root'
import { pageParam } from '../../security/form.server'
import { Pager } from '../../ui/pager'
import { ProductGrid, SortSelect } from '../../ui/catalog-tools'

/** The tab shows the Store's own name, from the root loader. */
export function meta({ matches }: { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> }) {
	const root = matches.find((match) => match?.id === 'root')?.data as { storeName?: string } | undefined
	return [{ title: root?.storeName ?? 'Store' }]
}

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const sort = sortFrom(new URL(args.request.url).searchParams.get('sort'), CATALOG_SORTS)
	const catalog = repositoriesFor(viewer).catalog
	const [found, collections] = await Promise.all([catalog.page({ page: pageParam(args.request), sort }), catalog.homeCollections()])
	return { sort, collections, ...found }
}

export default function Home({ loaderData }: Route.ComponentProps) {
	const root = useRouteLoaderData<typeof rootLoader>('root')
	const { products, page, pages, sort, collections } = loaderData
	return (
		<section>
			<h1>{root?.storeName}</h1>
			{collections.links.length > 0 ? (
				<nav aria-label="Collections">
					<ul className="collection-links">
						{collections.links.map((collection) => (
							<li key={collection.slug}>
								<Link to={`/collections/${collection.slug}`}>{collection.title}</Link>
							</li>
						))}
						{collections.total > collections.links.length ? (
							<li>
								<Link to="/collections">All collections ({collections.total})</Link>
							</li>
						) : null}
					</ul>
				</nav>
			) : null}
			{products.length === 0 ? (
				<div className="empty-state" data-testid="catalog-empty">
					<p>Nothing for sale yet. Please come back soon.</p>
					{root?.viewer.signedIn && root.viewer.isAdmin ? (
						<p className="hint">
							Store Admins: run <code>npm run init -- --demo</code> for demo products.
						</p>
					) : null}
				</div>
			) : (
				<>
					<Form method="get" className="catalog-tools">
						<SortSelect options={sortOptions(CATALOG_SORTS)} value={sort} />
						<button type="submit">Sort</button>
					</Form>
					<ProductGrid products={products} />
				</>
			)}
			<Pager page={page} pages={pages} />
			{root?.viewer.signedIn ? null : (
				<p className="hint">
					Shop as a guest, or <Link to="/sign-up">create an account</Link> to see your orders later.
				</p>
			)}
		</section>
	)
}
