import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { csvLine, decimal } from '../rules/csv'
import { EXPORT_BATCH } from './orders-csv.server'

export const PRODUCT_COLUMNS = ['product_slug', 'product_title', 'status', 'option_names', 'variant_title', 'option_values', 'sku', 'price', 'stock'] as const

/** A JSON array of names as stored ('["Size","Colour"]'), shown as "Size / Colour". */
const joined = (stored: string) => {
	try {
		const names: unknown = JSON.parse(stored)
		return Array.isArray(names) ? names.map(String).join(' / ') : ''
	} catch {
		return ''
	}
}

/**
 * [R128] The Store's Products as CSV, one row per variant (in the Product's order), Products by
 * id in batches, written out batch by batch like the Orders' export.
 */
export async function* productsCsv(db: Db, admin: AdminViewer) {
	yield csvLine(PRODUCT_COLUMNS)
	let after: string | undefined
	for (;;) {
		const products = await db.product.findMany({
			where: { storeId: admin.storeId, ...(after ? { id: { gt: after } } : {}) },
			orderBy: { id: 'asc' },
			take: EXPORT_BATCH,
			select: {
				id: true,
				slug: true,
				title: true,
				status: true,
				optionNames: true,
				variants: {
					orderBy: [{ position: 'asc' }, { id: 'asc' }],
					select: { title: true, optionValues: true, sku: true, priceMinor: true, stock: true },
				},
			},
		})
		if (products.length === 0) return
		let chunk = ''
		for (const product of products) {
			for (const variant of product.variants) {
				chunk += csvLine([
					product.slug,
					product.title,
					product.status,
					joined(product.optionNames),
					variant.title,
					joined(variant.optionValues),
					variant.sku ?? '',
					decimal(variant.priceMinor),
					variant.stock,
				])
			}
		}
		yield chunk
		after = products[products.length - 1]!.id
	}
}
