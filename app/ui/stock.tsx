/** At or under this many units a shopper is told how many are left. */
export const LOW_STOCK = 5

/** What shoppers read about stock on cards and product pages. */
export function stockLabel(stock: number) {
	if (stock <= 0) return 'Sold out'
	return stock <= LOW_STOCK ? `${stock} left` : 'In stock'
}

export function StockBadge({ stock }: { stock: number }) {
	const state = stock <= 0 ? 'sold-out' : stock <= LOW_STOCK ? 'low' : 'in-stock'
	return (
		<span className={`stock stock-${state}`} data-testid="stock">
			{stockLabel(stock)}
		</span>
	)
}
