import { Link, useLoaderData } from 'react-router'
import { price, search } from '../catalog'

export const meta = () => [{ title: 'Search · Baseline store' }]

export function loader({ request }: { request: Request }) {
	const q = new URL(request.url).searchParams.get('q') ?? ''
	return { q, products: search(q.slice(0, 200)) }
}

export default function Search() {
	const { q, products } = useLoaderData<typeof loader>()
	return (
		<main>
			<h1>Results for “{q}”</h1>
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
