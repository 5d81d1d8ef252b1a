import { forgetCatalog } from './catalog.server'
import type { StoreScope } from '../data/scope'

/**
 * `npm run init -- --demo`: a handful of Products so a new store has something to sell.
 * Idempotent (by slug); never run by default.
 */
export const DEMO_PRODUCTS = [
	{ slug: 'canvas-tote', title: 'Canvas tote bag', description: 'Heavy cotton canvas, long handles, an inside pocket.', priceMinor: 2400, stock: 40 },
	{ slug: 'enamel-mug', title: 'Enamel camp mug', description: 'Speckled blue enamel, 350 ml. Dishwasher safe.', priceMinor: 1600, stock: 25 },
	{ slug: 'linen-napkins', title: 'Linen napkins (set of 4)', description: 'Stonewashed linen in oat. 45 × 45 cm.', priceMinor: 3200, stock: 15 },
	{ slug: 'beeswax-candle', title: 'Beeswax pillar candle', description: 'Pure beeswax, about 40 hours of burn time.', priceMinor: 1800, stock: 30 },
	{ slug: 'field-notebook', title: 'Field notebook', description: 'A6, 96 dot-grid pages, recycled paper.', priceMinor: 900, stock: 60 },
	{ slug: 'wool-socks', title: 'Merino wool socks', description: 'Warm, soft, made to last. One size (EU 38–44).', priceMinor: 2200, stock: 3 },
] as const

export async function seedDemoProducts({ db, storeId }: StoreScope) {
	let created = 0
	for (const product of DEMO_PRODUCTS) {
		const existing = await db.product.findUnique({ where: { storeId_slug: { storeId, slug: product.slug } }, select: { id: true } })
		if (existing) continue
		await db.product.create({ data: { ...product, storeId, status: 'active' } })
		created++
	}
	if (created > 0) forgetCatalog()
	return created
}
