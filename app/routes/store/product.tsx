import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/product'
import { getViewer } from '../../auth/guards.server'
import { MAX_LINE_QUANTITY } from '../../cart/limits'
import { repositoriesFor } from '../../repositories.server'
import { Price } from '../../ui/money-format'
import { ProductImage } from '../../ui/product-card'

export const meta = ({ data: product }: Route.MetaArgs) => [{ title: product ? product.title : 'Product' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const slug = args.params.slug
	// Drafts, archived products and unknown slugs are all simply not here (404).
	const product = /^[a-z0-9-]{1,80}$/.test(slug) ? await repositoriesFor(viewer).catalog.bySlug(slug) : null
	if (!product) throw data({ message: 'This product is not available.' }, { status: 404 })
	return product
}

export default function ProductPage({ loaderData: product }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const max = Math.min(product.stock, MAX_LINE_QUANTITY)
	return (
		<article className="product-page">
			<ProductImage imageKey={product.imageKey} title={product.title} />
			<div>
				<p className="breadcrumbs">
					<Link to="/">All products</Link>
				</p>
				<h1>{product.title}</h1>
				<p className="product-price">
					<Price minor={product.priceMinor} />
				</p>
				<p className="description">{product.description}</p>
				{product.stock > 0 ? (
					<Form method="post" action="/cart" className="add-to-cart">
						<input type="hidden" name="intent" value="add" />
						<input type="hidden" name="productId" value={product.id} />
						<label htmlFor="quantity">Quantity</label>
						<input id="quantity" name="quantity" type="number" min={1} max={max} defaultValue={1} inputMode="numeric" />
						<button type="submit" disabled={pending}>
							{pending ? 'Adding…' : 'Add to cart'}
						</button>
						{product.stock <= 5 ? <p className="hint">Only {product.stock} left.</p> : null}
					</Form>
				) : (
					<p className="badge">Sold out</p>
				)}
			</div>
		</article>
	)
}
