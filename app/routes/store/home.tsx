import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import type { loader as rootLoader } from '../../root'
import { pageParam } from '../../security/form.server'
import { Pager } from '../../ui/pager'
import { ProductCard } from '../../ui/product-card'

/** The tab shows the Store's own name, from the root loader. */
export function meta({ matches }: { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> }) {
	const root = matches.find((match) => match?.id === 'root')?.data as { storeName?: string } | undefined
	return [{ title: root?.storeName ?? 'Store' }]
}

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	return repositoriesFor(viewer).catalog.page({ page: pageParam(args.request) })
}

export default function Home({ loaderData }: Route.ComponentProps) {
	const root = useRouteLoaderData<typeof rootLoader>('root')
	const { products, page, pages } = loaderData
	return (
		<section>
			<h1>{root?.storeName}</h1>
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
				<ul className="product-grid">
					{products.map((product) => (
						<li key={product.id}>
							<ProductCard product={product} />
						</li>
					))}
				</ul>
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
