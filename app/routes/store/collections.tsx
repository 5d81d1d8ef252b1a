import { Link } from 'react-router'
import type { Route } from './+types/collections'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { pageParam } from '../../security/form.server'
import { Pager } from '../../ui/pager'

export function meta() {
	return [{ title: 'Collections' }]
}

/** [R141] Every collection of the Store, a page at a time, in the order Store Admin gave them. */
export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	return repositoriesFor(viewer).catalog.collectionsPage({ page: pageParam(args.request) })
}

export default function Collections({ loaderData }: Route.ComponentProps) {
	const { collections, page, pages } = loaderData
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/">All products</Link>
			</p>
			<h1>Collections</h1>
			{collections.length === 0 ? (
				<p className="empty-state" data-testid="collections-empty">
					No collections here. Please come back soon.
				</p>
			) : (
				<ul className="collection-index" data-testid="collection-index">
					{collections.map((collection) => (
						<li key={collection.slug}>
							<Link to={`/collections/${collection.slug}`}>{collection.title}</Link>
						</li>
					))}
				</ul>
			)}
			<Pager page={page} pages={pages} />
		</section>
	)
}
