import { Link, useLoaderData } from 'react-router'
import { price, products } from '../catalog'

export const meta = () => [{ title: 'Baseline store' }]

export function loader() {
	return { products }
}

export default function Home() {
	const { products } = useLoaderData<typeof loader>()
	return (
		<main>
			<h1>Baseline store</h1>
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
