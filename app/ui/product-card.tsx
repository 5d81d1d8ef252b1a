import { Link } from 'react-router'
import { srcSetOf } from './image-sources'
import { Price } from './money-format'
import { StockBadge } from './stock'

type Card = { slug: string; title: string; priceMinor: number; priceVaries?: boolean; stock: number; imageKey: string | null }

export function ProductImage({ imageKey, title }: { imageKey: string | null; title: string }) {
	return imageKey ? (
		<img
			className="product-image"
			src={`/media/${imageKey}`}
			srcSet={srcSetOf(imageKey, null)}
			sizes="(max-width: 40rem) 50vw, 16rem"
			alt={title}
			loading="lazy"
		/>
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
			<span>
				{product.priceVaries ? 'From ' : null}
				<Price minor={product.priceMinor} />
			</span>
			<StockBadge stock={product.stock} />
		</Link>
	)
}
