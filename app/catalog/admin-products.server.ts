import { auditEntry } from '../audit/audit.server'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../cart/limits'
import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { forgetCatalog, type ProductStatus } from './catalog.server'
import { isUniqueViolation } from '../data/unique-violation'

export type ProductInput = {
	title: string
	slug: string
	description: string
	priceMinor: number
	stock: number
	status: ProductStatus
	/** Makes this upload the main image (first in the gallery); null or absent leaves the gallery as it is. */
	imageKey?: string | null
}

export const ADMIN_PAGE_SIZE = 20

const adminFields = {
	id: true,
	slug: true,
	title: true,
	description: true,
	priceMinor: true,
	stock: true,
	status: true,
	imageKey: true,
	updatedAt: true,
} as const

/** The form checks these too; the repository holds the line for every other caller (docs/decisions/030). */
function checkLimits(input: ProductInput) {
	const within = (value: number, max: number) => Number.isSafeInteger(value) && value >= 0 && value <= max
	if (!within(input.priceMinor, MAX_UNIT_PRICE_MINOR)) throw new DomainError(400, LIMIT_ERRORS.price, 'price')
	if (!within(input.stock, MAX_STOCK)) throw new DomainError(400, LIMIT_ERRORS.stock, 'stock')
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
		return product
	}

	return {
		async page({ page = 1, query = '', status }: { page?: number; query?: string; status?: ProductStatus }) {
			const where = {
				storeId,
				...(status ? { status } : {}),
				...(query ? { OR: [{ title: { contains: query } }, { slug: { contains: query.toLowerCase() } }] } : {}),
			}
			const [products, total] = await Promise.all([
				db.product.findMany({
					where,
					orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
					skip: (page - 1) * ADMIN_PAGE_SIZE,
					take: ADMIN_PAGE_SIZE,
					select: adminFields,
				}),
				db.product.count({ where }),
			])
			return { products, total, page, pages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) }
		},

		get: own,

		async create({ imageKey, ...input }: ProductInput) {
			checkLimits(input)
			await checkImage(imageKey ?? null)
			try {
				const created = await db.$transaction(async (tx) => {
					const product = await tx.product.create({ data: { ...input, storeId }, select: { id: true } })
					if (imageKey) await putFirst(tx, product.id, imageKey)
					await auditEntry(tx, admin, {
						action: 'product.create',
						targetType: 'product',
						targetId: product.id,
						detail: { slug: input.slug, title: input.title },
					})
					return product
				})
				forgetCatalog()
				return created
			} catch (error) {
				if (isUniqueViolation(error)) throw new DomainError(409, 'Another product already uses this slug.', 'slug')
				throw error
			}
		},

		async update(id: string, { imageKey, ...input }: ProductInput) {
			checkLimits(input)
			const before = await own(id)
			await checkImage(imageKey ?? null)
			try {
				await db.$transaction(async (tx) => {
					await tx.product.update({ where: { id: before.id }, data: input })
					if (imageKey) await putFirst(tx, before.id, imageKey)
					await auditEntry(tx, admin, {
						action: 'product.update',
						targetType: 'product',
						targetId: id,
						detail: changes(before, { ...input, ...(imageKey ? { imageKey } : {}) }),
					})
				})
				forgetCatalog()
			} catch (error) {
				if (isUniqueViolation(error)) throw new DomainError(409, 'Another product already uses this slug.', 'slug')
				throw error
			}
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

		/** [R114] Active products at or under `threshold` units, fewest first, and how many there are. */
		async lowStock(threshold: number, take = 10) {
			const where = { storeId, status: 'active', stock: { lte: threshold } }
			const [products, count] = await Promise.all([
				db.product.findMany({ where, orderBy: [{ stock: 'asc' }, { title: 'asc' }], take, select: { id: true, title: true, stock: true } }),
				db.product.count({ where }),
			])
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
