/** The same six products the store's demo shows, as plain data: the baseline does no I/O. */
export const products = [
	{ slug: 'canvas-tote', name: 'Canvas tote', price: 2400, description: 'A sturdy everyday bag.' },
	{ slug: 'enamel-mug', name: 'Enamel mug', price: 1600, description: 'Camp coffee, any day.' },
	{ slug: 'field-notebook', name: 'Field notebook', price: 900, description: 'Pocket-sized, dot grid.' },
	{ slug: 'wool-beanie', name: 'Wool beanie', price: 2800, description: 'Warm and soft merino.' },
	{ slug: 'linen-apron', name: 'Linen apron', price: 3900, description: 'For the kitchen or the studio.' },
	{ slug: 'brass-pen', name: 'Brass pen', price: 4500, description: 'Weighty, refillable.' },
]

/** Built once, as any careful author (and the store, per locale and currency) does. */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export const price = (cents: number) => usd.format(cents / 100)
