import type { Db } from '../data/db.server'
import type { Viewer } from '../data/viewer'

export { PRODUCT_STATUSES, type ProductStatus } from './status'

export const CATALOG_PAGE_SIZE = 12

/** What a shopper sees of a Product: never drafts, never archived ones, never another Store's. */
const shopperFields = { id: true, slug: true, title: true, description: true, priceMinor: true, stock: true, imageKey: true } as const

export function catalogRepository(db: Db, viewer: Viewer) {
	const visible = { storeId: viewer.storeId, status: 'active' }
	return {
		async page({ page = 1 }: { page?: number } = {}) {
			const [products, total] = await Promise.all([
				db.product.findMany({
					where: visible,
					orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
					skip: (page - 1) * CATALOG_PAGE_SIZE,
					take: CATALOG_PAGE_SIZE,
					select: shopperFields,
				}),
				db.product.count({ where: visible }),
			])
			return { products, total, page, pages: Math.max(1, Math.ceil(total / CATALOG_PAGE_SIZE)) }
		},

		bySlug(slug: string) {
			return db.product.findFirst({ where: { ...visible, slug }, select: shopperFields })
		},
	}
}

/** The Store's currency and locale, for formatting prices. */
export function storeMoney(db: Db, storeId: string) {
	return db.store.findUniqueOrThrow({ where: { id: storeId }, select: { currency: true, locale: true } })
}
