import { data, Form, useLoaderData } from 'react-router'
import { price, products } from '../catalog'

export const meta = () => [{ title: 'Product · Baseline store' }]

export function loader({ params }: { params: { slug?: string } }) {
	const product = products.find((candidate) => candidate.slug === params.slug)
	if (!product) throw data('Not found', { status: 404 })
	return { product }
}

export default function Product() {
	const { product } = useLoaderData<typeof loader>()
	return (
		<main>
			<h1>{product.name}</h1>
			<p>{product.description}</p>
			<p>{price(product.price)}</p>
			<Form method="post" action="/cart">
				<input type="hidden" name="slug" value={product.slug} />
				<button type="submit">Add to cart</button>
			</Form>
		</main>
	)
}
