import type { Db } from '../data/db.server'
import { sharedCache } from '../data/shared-cache.server'
import { storeCounts } from '../data/store-counts.server'
import { onSignal } from '../data/signals.server'
import type { Viewer } from '../data/viewer'
import { searchProductIds } from './search.server'
import { type CatalogSort, type SearchSort } from './sort'
import { readOptionList, totalStock } from '../rules/variants'

export { PRODUCT_STATUSES, type ProductStatus } from './status'

export const CATALOG_PAGE_SIZE = 12

/** [R141] The home page links at most this many collections; the rest are a link away, on `/collections`. */
export const HOME_COLLECTION_LINKS = 12

/** [R141] Collections one page of `/collections` lists. */
export const COLLECTIONS_PAGE_SIZE = 60

/**
 * What a shopper sees of a Product on a card: never drafts, never archived ones, never another
 * Store's. No description: a card shows none, and a list would carry up to 2,000 characters a
 * card into every page it renders (the product page reads its own).
 */
const shopperFields = {
	id: true,
	slug: true,
	title: true,
	priceMinor: true,
	imageKey: true,
	variants: { select: { priceMinor: true, stock: true } },
} as const

type StoredProduct = {
	id: string
	slug: string
	title: string
	priceMinor: number
	imageKey: string | null
	variants: Array<{ priceMinor: number; stock: number }>
}
/** A card: the lowest price ("from" when variants differ) and the stock of every variant together. */
type ShopperProduct = Omit<StoredProduct, 'variants'> & { stock: number; priceVaries: boolean }
type CatalogPage = { products: ShopperProduct[]; total: number; page: number; pages: number }
type GalleryImage = { key: string; width: number | null; height: number | null }
/** [R121] What a shopper chooses from: each variant's name, price, stock and image; SKUs stay in Store Admin. */
type ShopperVariant = { id: string; title: string; optionValues: string[]; priceMinor: number; stock: number; imageKey: string | null }
type ShopperProductPage = ShopperProduct & { description: string; images: GalleryImage[]; optionNames: string[]; variants: ShopperVariant[] }

function card({ variants, ...product }: StoredProduct): ShopperProduct {
	return { ...product, stock: totalStock(variants), priceVaries: variants.some((variant) => variant.priceMinor !== product.priceMinor) }
}
type CollectionLink = { slug: string; title: string }
/** [R141] The home page's first collections, and how many the Store has (more than shown means a link to all). */
type HomeCollections = { links: CollectionLink[]; total: number }
type CollectionsPage = { collections: CollectionLink[]; total: number; page: number; pages: number }
type CollectionPage = CatalogPage & { collection: CollectionLink & { description: string } }

/** The id breaks ties in the key's direction, so one index (Store, status, key, id) reads either way. */
const ORDER_BY = {
	newest: [{ createdAt: 'desc' }, { id: 'desc' }],
	'price-asc': [{ priceMinor: 'asc' }, { id: 'asc' }],
	'price-desc': [{ priceMinor: 'desc' }, { id: 'desc' }],
	name: [{ title: 'asc' }, { id: 'asc' }],
} as const satisfies Record<CatalogSort, unknown>

const pagesOf = (total: number, size = CATALOG_PAGE_SIZE) => Math.max(1, Math.ceil(total / size))

/** The order Store Admin gives collections; the id only settles rows equal in both, so pages never overlap. */
const COLLECTION_ORDER = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }] as const

/**
 * what shoppers see of the catalog is read on every catalog and product page and
 * changes only when a Product is written (admin edits, stock taken by a checkout or returned
 * by a cancel): kept in memory, and every write calls `forgetCatalog()` once it commits.
 */
const shopperCatalog = sharedCache<CatalogPage | ShopperProductPage | HomeCollections | CollectionsPage | CollectionPage | null>({
	topic: 'catalog',
	ttlMs: 30_000,
	max: 500,
})

/**
 * Search results, on the same terms (forgotten with the catalog), in a cache of their own: a
 * question is anyone's to invent, so a crawler trying thousands of them pushes out other
 * questions, never a product or collection page.
 */
const searchResults = sharedCache<CatalogPage>({ topic: 'catalog-search', ttlMs: 30_000, max: 256 })

/** After any committed write to a Product of this runtime's Store. */
export function forgetCatalog() {
	shopperCatalog.forgetAll()
	searchResults.forgetAll()
}
// Stock changed by an Order (checkout, a cancel) is announced, not imported from here.
onSignal('catalog-changed', forgetCatalog)

export function catalogRepository(db: Db, viewer: Viewer) {
	const visible = { storeId: viewer.storeId, status: 'active' }
	return {
		page({ page = 1, sort = 'newest' }: { page?: number; sort?: CatalogSort } = {}) {
			return shopperCatalog.get(`${viewer.storeId}\u0000page\u0000${sort}\u0000${page}`, () => readPage(page, sort)) as Promise<CatalogPage>
		},

		/**
		 * [R141] The Store's first collections in the order Store Admin gave them, for the home
		 * page's links: one row past the limit says whether there are more, and only then are they
		 * counted, so the home page costs the same with 12 collections or 4,000.
		 */
		homeCollections() {
			return shopperCatalog.get(`${viewer.storeId}\u0000collections\u0000home`, async () => {
				const found = await db.collection.findMany({
					where: { storeId: viewer.storeId },
					orderBy: [...COLLECTION_ORDER],
					take: HOME_COLLECTION_LINKS + 1,
					select: { slug: true, title: true },
				})
				const links = found.slice(0, HOME_COLLECTION_LINKS)
				const total = found.length > links.length ? await db.collection.count({ where: { storeId: viewer.storeId } }) : links.length
				return { links, total }
			}) as Promise<HomeCollections>
		},

		/** [R141] One page of every collection of the Store, in the order Store Admin gave them; a page past the end is empty. */
		collectionsPage({ page = 1 }: { page?: number } = {}) {
			return shopperCatalog.get(`${viewer.storeId}\u0000collections\u0000page\u0000${page}`, async () => {
				const where = { storeId: viewer.storeId }
				const [collections, total] = await Promise.all([
					db.collection.findMany({
						where,
						orderBy: [...COLLECTION_ORDER],
						skip: (page - 1) * COLLECTIONS_PAGE_SIZE,
						take: COLLECTIONS_PAGE_SIZE,
						select: { slug: true, title: true },
					}),
					db.collection.count({ where }),
				])
				return { collections, total, page, pages: pagesOf(total, COLLECTIONS_PAGE_SIZE) }
			}) as Promise<CollectionsPage>
		},

		/** [R111] One collection's active Products in its order; null for a slug no collection has. */
		collection(slug: string, { page = 1 }: { page?: number } = {}) {
			return shopperCatalog.get(
				`${viewer.storeId}\u0000collection\u0000${slug}\u0000${page}`,
				() => readCollection(slug, page),
				(found) => found !== null,
			) as Promise<CollectionPage | null>
		},

		/**
		 * [R110] Active Products with every word of `terms` in their title or description. The same
		 * for every shopper of the Store: kept like the other catalog pages and forgotten on every
		 * write, in a cache of its own (the questions are anyone's to invent).
		 */
		search({ terms, sort = 'relevance', page = 1 }: { terms: readonly string[]; sort?: SearchSort; page?: number }): Promise<CatalogPage> {
			return searchResults.get(`${viewer.storeId}\u0000${sort}\u0000${page}\u0000${terms.join(' ')}`, async () => {
				const skip = (page - 1) * CATALOG_PAGE_SIZE
				const { ids, total } = await searchProductIds(db, viewer, { terms, sort, skip, take: CATALOG_PAGE_SIZE })
				// By primary key, kept to the visible ones here: with storeId and status in the WHERE,
				// SQLite without statistics walked every active Product through a (storeId, status) index.
				const found =
					ids.length === 0 ? [] : await db.product.findMany({ where: { id: { in: ids } }, select: { ...shopperFields, storeId: true, status: true } })
				const shown = found.filter((product) => product.storeId === visible.storeId && product.status === visible.status)
				const byId = new Map(shown.map(({ storeId: _storeId, status: _status, ...product }) => [product.id, card(product)]))
				const products = ids.flatMap((id) => byId.get(id) ?? [])
				return { products, total, page, pages: pagesOf(total) }
			})
		},

		/** Kept only when found: unknown slugs are anyone's to invent and would crowd the cache. */
		bySlug(slug: string) {
			return shopperCatalog.get(
				`${viewer.storeId}\u0000slug\u0000${slug}`,
				() => readProduct(slug),
				(product) => product !== null,
			) as Promise<ShopperProductPage | null>
		},
	}

	async function readProduct(slug: string): Promise<ShopperProductPage | null> {
		const product = await db.product.findFirst({
			where: { ...visible, slug },
			select: {
				...shopperFields,
				description: true,
				optionNames: true,
				images: { orderBy: [{ position: 'asc' }, { key: 'asc' }], select: { key: true, width: true, height: true } },
				variants: {
					orderBy: [{ position: 'asc' }, { createdAt: 'asc' }],
					select: { id: true, title: true, optionValues: true, priceMinor: true, stock: true, imageKey: true },
				},
			},
		})
		if (!product) return null
		const { optionNames, images, description, ...rest } = product
		return {
			...card(rest),
			description,
			images,
			optionNames: readOptionList(optionNames),
			variants: product.variants.map((variant) => ({ ...variant, optionValues: readOptionList(variant.optionValues) })),
		}
	}

	async function readCollection(slug: string, page: number): Promise<CollectionPage | null> {
		const collection = await db.collection.findFirst({
			where: { storeId: viewer.storeId, slug },
			select: { id: true, slug: true, title: true, description: true },
		})
		if (!collection) return null
		const where = { collectionId: collection.id, product: visible }
		const [members, total] = await Promise.all([
			db.collectionProduct.findMany({
				where,
				orderBy: [{ position: 'asc' }, { productId: 'asc' }],
				skip: (page - 1) * CATALOG_PAGE_SIZE,
				take: CATALOG_PAGE_SIZE,
				select: { product: { select: shopperFields } },
			}),
			db.collectionProduct.count({ where }),
		])
		const { id: _id, ...shown } = collection
		return { collection: shown, products: members.map((member) => card(member.product)), total, page, pages: pagesOf(total) }
	}

	async function readPage(page: number, sort: CatalogSort): Promise<CatalogPage> {
		const [products, total] = await Promise.all([
			db.product.findMany({
				where: visible,
				orderBy: [...ORDER_BY[sort]],
				skip: (page - 1) * CATALOG_PAGE_SIZE,
				take: CATALOG_PAGE_SIZE,
				select: shopperFields,
			}),
			// Kept with every write of a Product (store_counts) rather than counted on each read.
			storeCounts(db, viewer.storeId, ['products:active']).then((counts) => counts['products:active']),
		])
		return { products: products.map(card), total, page, pages: pagesOf(total) }
	}
}
