import { auditedChange, auditEntry } from '../audit/audit.server'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../rules/limits'
import type { Db } from '../data/db.server'
import { storeCountTotal } from '../data/store-counts.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { PRODUCT_STATUSES, forgetCatalog, type ProductStatus } from './catalog.server'
import { searchAdminProductIds } from './search.server'
import { ADMIN_SEARCH_CAP, searchTerms } from '../rules/search-terms'
import { isUniqueViolation } from '../data/unique-violation'
import { lineName, lowestPrice, readOptionList, totalStock, variantProblems, variantRow, variantTitle, type VariantInput } from '../rules/variants'

export type ProductInput = {
	title: string
	slug: string
	description: string
	status: ProductStatus
	/** Makes this upload the main image (first in the gallery); null or absent leaves the gallery as it is. */
	imageKey?: string | null
	/** The names of its options in order ([] for a Product sold as one variant) [R121]. */
	optionNames: string[]
	/** Every variant it is to have: existing ones by id, new ones without; any other is deleted. */
	variants: VariantInput[]
}

export const ADMIN_PAGE_SIZE = 20

/** A Product's variants in the order Store Admin gave them. */
export const VARIANT_ORDER: Array<{ position: 'asc' } | { createdAt: 'asc' }> = [{ position: 'asc' }, { createdAt: 'asc' }]

const variantFields = { id: true, optionValues: true, title: true, sku: true, priceMinor: true, stock: true, imageKey: true } as const

const adminFields = {
	id: true,
	slug: true,
	title: true,
	description: true,
	priceMinor: true,
	optionNames: true,
	status: true,
	imageKey: true,
	updatedAt: true,
	variants: { orderBy: VARIANT_ORDER, select: variantFields },
} as const

/**
 * What a row of Store Admin's products list shows: no description (up to 2,000 characters) and of
 * the variants only their prices and stock, so a page of 20 products does not carry 20 whole
 * products into the page's data.
 */
const listFields = {
	id: true,
	slug: true,
	title: true,
	priceMinor: true,
	status: true,
	updatedAt: true,
	variants: { select: { priceMinor: true, stock: true } },
} as const

function listed<P extends { priceMinor: number; variants: Array<{ priceMinor: number; stock: number }> }>({ variants, ...product }: P) {
	return {
		...product,
		stock: totalStock(variants),
		priceVaries: variants.some((variant) => variant.priceMinor !== product.priceMinor),
		variantCount: variants.length,
	}
}

/** A product as Store Admin reads it: options as a list, and the stock of all its variants. */
type Stored = { optionNames: string; variants: Array<{ optionValues: string; stock: number }> }
type Shown<P extends Stored> = Omit<P, 'optionNames' | 'variants'> & {
	optionNames: string[]
	stock: number
	variants: Array<Omit<P['variants'][number], 'optionValues'> & { optionValues: string[] }>
}
function shown<P extends Stored>(product: P): Shown<P> {
	const { optionNames, variants, ...rest } = product
	return {
		...rest,
		optionNames: readOptionList(optionNames),
		stock: totalStock(variants),
		variants: variants.map(({ optionValues, ...variant }) => ({ ...variant, optionValues: readOptionList(optionValues) })) as Shown<P>['variants'],
	}
}

/**
 * The form checks these too; the repository holds the line for every other caller
 * (docs/decisions/030): prices and stock within both engines' limits, never negative, and the
 * options and variants as the rules of app/rules/variants.ts want them [R121].
 */
function checkVariants(input: ProductInput) {
	const within = (value: number, max: number) => Number.isSafeInteger(value) && value >= 0 && value <= max
	for (const [index, variant] of input.variants.entries()) {
		if (!within(variant.priceMinor, MAX_UNIT_PRICE_MINOR)) throw new DomainError(400, LIMIT_ERRORS.price, `variant.${index}.price`)
		if (!within(variant.stock, MAX_STOCK)) throw new DomainError(400, LIMIT_ERRORS.stock, `variant.${index}.stock`)
	}
	const problems = Object.entries(variantProblems(input.optionNames, input.variants))
	if (problems.length > 0) {
		const [field, message] = problems[0]!
		throw new DomainError(400, message, field)
	}
}

/** Which unique key a refused write hit: a slug or a SKU another product already has. */
function duplicateOf(error: unknown) {
	if (isUniqueViolation(error, 'sku')) return new DomainError(409, 'Another product already has one of these SKUs.', 'variants')
	return new DomainError(409, 'Another product already uses this slug.', 'slug')
}

/**
 * Products as Store Admin manages them. Scope is the admin's Store; every write
 * adds an activity-log row in the same transaction. An image must be an upload of this Store.
 */
export function adminProductsRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId

	const checkImage = async (imageKey: string | null) => {
		if (!imageKey) return
		const upload = await db.uploadedObject.findFirst({ where: { key: imageKey, storeId }, select: { id: true } })
		if (!upload) throw new DomainError(400, 'Choose one of this store’s uploaded images.', 'imageKey')
	}

	/** The upload becomes the first image of the gallery (added when absent) and the main image. */
	const putFirst = async (tx: Pick<Db, 'productImage' | 'product'>, productId: string, key: string) => {
		const rest = (await tx.productImage.findMany({ where: { productId }, orderBy: [{ position: 'asc' }, { key: 'asc' }], select: { key: true } }))
			.map((row) => row.key)
			.filter((other) => other !== key)
		await tx.productImage.upsert({
			where: { productId_key: { productId, key } },
			create: { storeId, productId, key, position: 0 },
			update: { position: 0 },
		})
		for (const [index, other] of rest.entries())
			await tx.productImage.update({ where: { productId_key: { productId, key: other } }, data: { position: index + 1 } })
		await tx.product.update({ where: { id: productId }, data: { imageKey: key } })
	}

	const own = async (id: string) => {
		const product = await db.product.findFirst({ where: { id, storeId }, select: adminFields })
		if (!product) throw notFound('That product')
		return shown(product)
	}

	/**
	 * Writes the variants of `productId` to be exactly `input.variants` (the caller writes the
	 * Product's options and "from" price with its own row). An id that is not one of this Product's
	 * variants (another Product's, another Store's, made up) is refused, and an image must be in
	 * its gallery.
	 */
	const writeVariants = async (tx: Pick<Db, 'productVariant' | 'productImage'>, productId: string, input: ProductInput) => {
		const existing = new Set((await tx.productVariant.findMany({ where: { productId, storeId }, select: { id: true } })).map((row) => row.id))
		for (const [index, variant] of input.variants.entries()) {
			if (variant.id !== undefined && !existing.has(variant.id))
				throw new DomainError(400, `Variant ${index + 1} is not one of this product’s variants.`, 'variants')
		}
		const imageKeys = [...new Set(input.variants.flatMap((variant) => (variant.imageKey ? [variant.imageKey] : [])))]
		if (imageKeys.length > 0) {
			const gallery = await tx.productImage.count({ where: { productId, storeId, key: { in: imageKeys } } })
			if (gallery !== imageKeys.length) throw new DomainError(400, 'Choose a variant’s image from this product’s images.', 'variants')
		}
		const kept = input.variants.flatMap((variant) => (variant.id ? [variant.id] : []))
		await tx.productVariant.deleteMany({ where: { productId, storeId, id: { notIn: kept } } })
		for (const [position, { id, ...variant }] of input.variants.entries()) {
			const data = variantRow(variant, position)
			if (id) await tx.productVariant.update({ where: { id }, data })
			else await tx.productVariant.create({ data: { ...data, storeId, productId } })
		}
	}

	/** What the Product's own row keeps of its variants: the option names and the lowest price. */
	const summary = ({ optionNames, variants }: ProductInput) => ({ optionNames: JSON.stringify(optionNames), priceMinor: lowestPrice(variants) })

	const countOf = (status?: ProductStatus) =>
		storeCountTotal(
			db,
			storeId,
			(status ? [status] : PRODUCT_STATUSES).map((s) => `products:${s}`),
		)

	return {
		async page({ page = 1, query = '', status }: { page?: number; query?: string; status?: ProductStatus }) {
			const skip = (page - 1) * ADMIN_PAGE_SIZE
			const terms = searchTerms(query)
			// A question without a word lists every product, as no question does.
			if (terms.length > 0) {
				const found = await searchAdminProductIds(db, storeId, { terms, slug: query.trim().toLowerCase(), status, skip, take: ADMIN_PAGE_SIZE })
				// By primary key alone (with the Store beside the ids SQLite walked the Store's products);
				// the ids came from this Store's search, and the Store is checked on each row.
				const rows = found.ids.length === 0 ? [] : await db.product.findMany({ where: { id: { in: found.ids } }, select: { ...listFields, storeId: true } })
				const byId = new Map(rows.filter((row) => row.storeId === storeId).map(({ storeId: _store, ...row }) => [row.id, row]))
				const more = found.total > ADMIN_SEARCH_CAP
				const total = more ? ADMIN_SEARCH_CAP : found.total
				const products = found.ids.flatMap((id) => {
					const row = byId.get(id)
					return row ? [listed(row)] : []
				})
				return { products, total, more, page, pages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) }
			}
			const where = { storeId, ...(status ? { status } : {}) }
			const [products, total] = await Promise.all([
				db.product.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip, take: ADMIN_PAGE_SIZE, select: listFields }),
				// The whole list or one status is read from the kept counts.
				countOf(status),
			])
			return { products: products.map(listed), total, more: false, page, pages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) }
		},

		get: own,

		async create(input: ProductInput) {
			const { imageKey, optionNames: _names, variants, ...fields } = input
			checkVariants(input)
			// A new product has no gallery yet: its variants' images are chosen once it has one.
			if (variants.some((variant) => variant.id !== undefined || variant.imageKey !== null))
				throw new DomainError(400, 'A new product’s variants have no id or image yet.', 'variants')
			await checkImage(imageKey ?? null)
			return auditedChange(db, admin, {
				write: async (tx) => {
					// Its variants are all new (no ids, no images yet, checked above): created with it.
					const rows = variants.map((variant, position) => ({ ...variantRow(variant, position), storeId }))
					const product = await tx.product.create({ data: { ...fields, ...summary(input), storeId, variants: { create: rows } }, select: { id: true } })
					if (imageKey) await putFirst(tx, product.id, imageKey)
					return product
				},
				entry: (product) => ({ action: 'product.create', targetType: 'product', targetId: product.id, detail: { slug: input.slug, title: input.title } }),
				forget: forgetCatalog,
				duplicate: duplicateOf,
			})
		},

		async update(id: string, input: ProductInput) {
			const { imageKey, optionNames, variants, ...fields } = input
			checkVariants(input)
			const before = await own(id)
			await checkImage(imageKey ?? null)
			const variantsBefore = before.variants.map(({ id: _id, ...variant }) => variant)
			const variantsAfter = variants.map(({ id: _id, ...variant }) => variant)
			await auditedChange(db, admin, {
				write: async (tx) => {
					await writeVariants(tx, before.id, input)
					await tx.product.update({ where: { id: before.id }, data: { ...fields, ...summary(input) } })
					if (imageKey) await putFirst(tx, before.id, imageKey)
				},
				entry: () => ({
					action: 'product.update',
					targetType: 'product',
					targetId: id,
					detail: {
						...changes(before, { ...fields, ...(imageKey ? { imageKey } : {}) }),
						...(JSON.stringify(optionNames) !== JSON.stringify(before.optionNames) ? { optionNames } : {}),
						...(JSON.stringify(variantsAfter) !== JSON.stringify(variantsBefore)
							? { variants: variants.map((variant) => `${variantTitle(variant.optionValues) || 'default'}: ${variant.priceMinor} × ${variant.stock}`) }
							: {}),
					},
				}),
				forget: forgetCatalog,
				duplicate: duplicateOf,
			})
		},

		async setStatus(id: string, status: ProductStatus) {
			const before = await own(id)
			await db.$transaction(async (tx) => {
				await tx.product.update({ where: { id: before.id }, data: { status } })
				await auditEntry(tx, admin, {
					action: `product.${status === 'active' ? 'publish' : status === 'draft' ? 'unpublish' : 'archive'}`,
					targetType: 'product',
					targetId: id,
					detail: { from: before.status, to: status },
				})
			})
			forgetCatalog()
		},

		/** Deleting is for mistakes: a product any Order references is archived instead (409). */
		async delete(id: string) {
			const product = await own(id)
			const referenced = await db.orderLine.count({ where: { productId: product.id } })
			if (referenced > 0) throw new DomainError(409, 'Orders refer to this product: archive it instead.')
			await db.$transaction(async (tx) => {
				await tx.product.delete({ where: { id: product.id } })
				await auditEntry(tx, admin, { action: 'product.delete', targetType: 'product', targetId: id, detail: { slug: product.slug } })
			})
			forgetCatalog()
		},

		/** [R114] Variants of active products at or under `threshold` units, fewest first, and how many there are. */
		async lowStock(threshold: number, take = 10) {
			const where = { storeId, stock: { lte: threshold }, product: { status: 'active' } }
			const [variants, count] = await Promise.all([
				db.productVariant.findMany({
					where,
					orderBy: [{ stock: 'asc' }, { product: { title: 'asc' } }, { position: 'asc' }],
					take,
					select: { stock: true, title: true, product: { select: { id: true, title: true } } },
				}),
				db.productVariant.count({ where }),
			])
			const products = variants.map((variant) => ({
				id: variant.product.id,
				title: lineName(variant.product.title, variant.title),
				stock: variant.stock,
			}))
			return { products, count }
		},

		/** This Store's uploaded images, for the image picker. */
		images() {
			return db.uploadedObject.findMany({
				where: { storeId },
				orderBy: { createdAt: 'desc' },
				take: 100,
				select: { key: true, contentType: true, createdAt: true },
			})
		},
	}
}

function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
	const diff: Record<string, unknown> = {}
	for (const [key, value] of Object.entries(after)) if (before[key] !== value) diff[key] = value
	return diff
}
