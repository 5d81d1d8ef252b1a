import type { Db } from '../data/db.server'
import { sharedCache } from '../data/shared-cache.server'
import { onSignal } from '../data/signals.server'
import type { Viewer } from '../data/viewer'

export { PRODUCT_STATUSES, type ProductStatus } from './status'

export const CATALOG_PAGE_SIZE = 12

/** What a shopper sees of a Product: never drafts, never archived ones, never another Store's. */
const shopperFields = { id: true, slug: true, title: true, description: true, priceMinor: true, stock: true, imageKey: true } as const

type ShopperProduct = { id: string; slug: string; title: string; description: string; priceMinor: number; stock: number; imageKey: string | null }
type CatalogPage = { products: ShopperProduct[]; total: number; page: number; pages: number }

/**
 * what shoppers see of the catalog is read on every catalog and product page and
 * changes only when a Product is written (admin edits, stock taken by a checkout or returned
 * by a cancel): kept in memory, and every write calls `forgetCatalog()` once it commits.
 */
const shopperCatalog = sharedCache<CatalogPage | ShopperProduct | null>({ topic: 'catalog', ttlMs: 30_000, max: 500 })

/** After any committed write to a Product of this runtime's Store. */
export function forgetCatalog() {
	shopperCatalog.forgetAll()
}
// Stock changed by an Order (checkout, a cancel) is announced, not imported from here.
onSignal('catalog-changed', forgetCatalog)

export function catalogRepository(db: Db, viewer: Viewer) {
	const visible = { storeId: viewer.storeId, status: 'active' }
	return {
		page({ page = 1 }: { page?: number } = {}) {
			return shopperCatalog.get(`${viewer.storeId}\u0000page\u0000${page}`, () => readPage(page)) as Promise<CatalogPage>
		},

		/** Kept only when found: unknown slugs are anyone's to invent and would crowd the cache. */
		bySlug(slug: string) {
			return shopperCatalog.get(
				`${viewer.storeId}\u0000slug\u0000${slug}`,
				() => db.product.findFirst({ where: { ...visible, slug }, select: shopperFields }),
				(product) => product !== null,
			) as Promise<ShopperProduct | null>
		},
	}

	async function readPage(page: number): Promise<CatalogPage> {
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
	}
}
