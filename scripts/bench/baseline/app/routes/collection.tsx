import { data, Link, useLoaderData } from 'react-router'
import { collections, price, products } from '../catalog'

export const meta = () => [{ title: 'Collection · Baseline store' }]

export function loader({ params }: { params: { slug?: string } }) {
	const collection = collections.find((candidate) => candidate.slug === params.slug)
	if (!collection) throw data('Not found', { status: 404 })
	return { title: collection.title, products: collection.products.flatMap((slug) => products.filter((product) => product.slug === slug)) }
}

export default function Collection() {
	const { title, products } = useLoaderData<typeof loader>()
	return (
		<main>
			<h1>{title}</h1>
			<ul>
				{products.map((product) => (
					<li key={product.slug}>
						<Link to={`/products/${product.slug}`}>{product.name}</Link> <span>{price(product.price)}</span>
					</li>
				))}
			</ul>
		</main>
	)
}
