import { Link } from 'react-router'
import { Price } from './money-format'
import { StockBadge } from './stock'

type Card = { slug: string; title: string; priceMinor: number; stock: number; imageKey: string | null }

export function ProductImage({ imageKey, title }: { imageKey: string | null; title: string }) {
	return imageKey ? (
		<img className="product-image" src={`/media/${imageKey}`} alt={title} loading="lazy" />
	) : (
		<div className="product-image placeholder" aria-hidden="true">
			{title.slice(0, 1)}
		</div>
	)
}

export function ProductCard({ product }: { product: Card }) {
	return (
		<Link to={`/products/${product.slug}`} className="product-card">
			<ProductImage imageKey={product.imageKey} title={product.title} />
			<span className="product-title">{product.title}</span>
			<Price minor={product.priceMinor} />
			<StockBadge stock={product.stock} />
		</Link>
	)
}
