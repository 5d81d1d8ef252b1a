import { data, Link } from 'react-router'
import type { Route } from './+types/collection'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { pageParam } from '../../security/form.server'
import { ProductGrid } from '../../ui/catalog-tools'
import { Pager } from '../../ui/pager'

export function meta({ data: found }: Route.MetaArgs) {
	return [{ title: found ? found.collection.title : 'Collection not found' }]
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** [R111] A collection's active products, in the order Store Admin gave them. */
export async function loader(args: Route.LoaderArgs) {
	const slug = args.params.slug
	const viewer = await getViewer(args)
	const found = SLUG.test(slug) && slug.length <= 80 ? await repositoriesFor(viewer).catalog.collection(slug, { page: pageParam(args.request) }) : null
	if (!found) throw data({ message: 'That collection was not found.' }, { status: 404 })
	return found
}

export default function Collection({ loaderData }: Route.ComponentProps) {
	const { collection, products, page, pages } = loaderData
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/">All products</Link>
			</p>
			<h1>{collection.title}</h1>
			{collection.description ? <p className="description">{collection.description}</p> : null}
			{products.length === 0 ? <p data-testid="collection-empty">Nothing here yet. Please come back soon.</p> : <ProductGrid products={products} />}
			<Pager page={page} pages={pages} />
		</section>
	)
}
