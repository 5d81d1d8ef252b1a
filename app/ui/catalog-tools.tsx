import { ProductCard } from './product-card'

type GridProduct = Parameters<typeof ProductCard>[0]['product'] & { id: string }

export function ProductGrid({ products }: { products: readonly GridProduct[] }) {
	return (
		<ul className="product-grid">
			{products.map((product) => (
				<li key={product.id}>
					<ProductCard product={product} />
				</li>
			))}
		</ul>
	)
}

/** A plain select inside a GET form: sorting works without JavaScript. */
export function SortSelect({ options, value }: { options: ReadonlyArray<{ value: string; label: string }>; value: string }) {
	return (
		<label>
			Sort by
			<select name="sort" defaultValue={value}>
				{options.map((option) => (
					<option key={option.value} value={option.value}>
						{option.label}
					</option>
				))}
			</select>
		</label>
	)
}
