/** The same six products the store's demo shows, as plain data: the baseline does no I/O. */
export const products = [
	{ slug: 'canvas-tote', name: 'Canvas tote', price: 2400, description: 'A sturdy everyday bag.' },
	{ slug: 'enamel-mug', name: 'Enamel mug', price: 1600, description: 'Camp coffee, any day.' },
	{ slug: 'field-notebook', name: 'Field notebook', price: 900, description: 'Pocket-sized, dot grid.' },
	{ slug: 'wool-beanie', name: 'Wool beanie', price: 2800, description: 'Warm and soft merino.' },
	{ slug: 'linen-apron', name: 'Linen apron', price: 3900, description: 'For the kitchen or the studio.' },
	{ slug: 'brass-pen', name: 'Brass pen', price: 4500, description: 'Weighty, refillable.' },
]

/** A collection as the store's bench makes one: three products, in the order given. */
export const collections = [{ slug: 'kitchen', title: 'Kitchen', products: ['enamel-mug', 'linen-apron', 'field-notebook'] }]

/** Products whose name or description holds the words, as a small shop without a search index would. */
export function search(q: string) {
	const words = q.toLowerCase().split(/\s+/).filter(Boolean)
	return products.filter((product) => {
		const text = `${product.name} ${product.description}`.toLowerCase()
		return words.every((word) => text.includes(word))
	})
}

/** Built once, as any careful author (and the store, per locale and currency) does. */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export const price = (cents: number) => usd.format(cents / 100)
