import { auditedChange, auditEntry } from '../audit/audit.server'
import { type Db, transaction } from '../data/db.server'
import { isUniqueViolation } from '../data/unique-violation'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { forgetCatalog } from './catalog.server'

export type CollectionInput = { title: string; slug: string; description: string }
export type Direction = 'up' | 'down'

/** How many of the Store's products the "add a product" list offers. */
const PICKABLE = 500

/**
 * [R111] Collections as Store Admin manages them: the admin's Store only, a Product only of
 * that Store, each write with its activity-log row in the same transaction. Positions are
 * kept dense enough to swap: moving swaps with the neighbour, adding goes last.
 */
export function adminCollectionsRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId

	const own = async (id: string) => {
		const collection = await db.collection.findFirst({
			where: { id, storeId },
			select: { id: true, slug: true, title: true, description: true, position: true },
		})
		if (!collection) throw notFound('That collection')
		return collection
	}

	const ownProduct = async (productId: string) => {
		const product = await db.product.findFirst({ where: { id: productId, storeId }, select: { id: true, title: true } })
		if (!product) throw notFound('That product')
		return product
	}

	const slugTaken = () => new DomainError(409, 'Another collection already uses this slug.', 'slug')

	return {
		list() {
			return db.collection.findMany({
				where: { storeId },
				orderBy: [{ position: 'asc' }, { createdAt: 'asc' }],
				select: { id: true, slug: true, title: true, _count: { select: { products: true } } },
			})
		},

		async get(id: string) {
			const collection = await own(id)
			const [members, pickable] = await Promise.all([
				db.collectionProduct.findMany({
					where: { collectionId: collection.id },
					orderBy: [{ position: 'asc' }, { productId: 'asc' }],
					select: { product: { select: { id: true, title: true, slug: true, status: true } } },
				}),
				db.product.findMany({
					where: { storeId, status: { not: 'archived' }, collections: { none: { collectionId: collection.id } } },
					orderBy: { title: 'asc' },
					take: PICKABLE,
					select: { id: true, title: true },
				}),
			])
			return { collection, products: members.map((member) => member.product), pickable }
		},

		create(input: CollectionInput) {
			return auditedChange(db, admin, {
				write: async (tx) => {
					const last = await tx.collection.aggregate({ where: { storeId }, _max: { position: true } })
					return tx.collection.create({ data: { ...input, storeId, position: (last._max.position ?? -1) + 1 }, select: { id: true } })
				},
				entry: (collection) => ({
					action: 'collection.create',
					targetType: 'collection',
					targetId: collection.id,
					detail: { slug: input.slug, title: input.title },
				}),
				forget: forgetCatalog,
				duplicate: slugTaken,
			})
		},

		async update(id: string, input: CollectionInput) {
			const before = await own(id)
			await auditedChange(db, admin, {
				write: (tx) => tx.collection.update({ where: { id: before.id }, data: input, select: { id: true } }),
				entry: () => ({ action: 'collection.update', targetType: 'collection', targetId: id, detail: { slug: input.slug, title: input.title } }),
				forget: forgetCatalog,
				duplicate: slugTaken,
			})
		},

		async delete(id: string) {
			const collection = await own(id)
			await auditedChange(db, admin, {
				write: (tx) => tx.collection.delete({ where: { id: collection.id }, select: { id: true } }),
				entry: () => ({ action: 'collection.delete', targetType: 'collection', targetId: id, detail: { slug: collection.slug } }),
				forget: forgetCatalog,
			})
		},

		/** Swaps the collection with its neighbour in the Store's list; at either end nothing moves. */
		async move(id: string, direction: Direction) {
			const collection = await own(id)
			await transaction(db, async (tx) => {
				const list = await tx.collection.findMany({ where: { storeId }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }], select: { id: true } })
				const reordered = swapped(
					list.map((row) => row.id),
					collection.id,
					direction,
				)
				if (!reordered) return
				for (const [position, rowId] of reordered.entries()) await tx.collection.update({ where: { id: rowId }, data: { position } })
				await auditEntry(tx, admin, { action: 'collection.move', targetType: 'collection', targetId: id, detail: { direction } })
			})
			forgetCatalog()
		},

		/** Adding a product already there changes nothing (a second click, or two admins at once). */
		async addProduct(id: string, productId: string) {
			const collection = await own(id)
			const product = await ownProduct(productId)
			await transaction(db, async (tx) => {
				const present = await tx.collectionProduct.findUnique({
					where: { collectionId_productId: { collectionId: collection.id, productId: product.id } },
					select: { position: true },
				})
				if (present) return
				const last = await tx.collectionProduct.aggregate({ where: { collectionId: collection.id }, _max: { position: true } })
				await tx.collectionProduct.create({ data: { collectionId: collection.id, productId: product.id, position: (last._max.position ?? -1) + 1 } })
				await auditEntry(tx, admin, {
					action: 'collection.add-product',
					targetType: 'collection',
					targetId: id,
					detail: { productId: product.id, title: product.title },
				})
			}).catch((error: unknown) => {
				if (!isUniqueViolation(error)) throw error
			})
			forgetCatalog()
		},

		async removeProduct(id: string, productId: string) {
			const collection = await own(id)
			await transaction(db, async (tx) => {
				const removed = await tx.collectionProduct.deleteMany({ where: { collectionId: collection.id, productId } })
				if (removed.count === 0) throw notFound('That product in this collection')
				await auditEntry(tx, admin, { action: 'collection.remove-product', targetType: 'collection', targetId: id, detail: { productId } })
			})
			forgetCatalog()
		},

		async moveProduct(id: string, productId: string, direction: Direction) {
			const collection = await own(id)
			await transaction(db, async (tx) => {
				const members = await tx.collectionProduct.findMany({
					where: { collectionId: collection.id },
					orderBy: [{ position: 'asc' }, { productId: 'asc' }],
					select: { productId: true },
				})
				if (!members.some((member) => member.productId === productId)) throw notFound('That product in this collection')
				const reordered = swapped(
					members.map((member) => member.productId),
					productId,
					direction,
				)
				if (!reordered) return
				for (const [position, member] of reordered.entries())
					await tx.collectionProduct.update({ where: { collectionId_productId: { collectionId: collection.id, productId: member } }, data: { position } })
			})
			forgetCatalog()
		},
	}
}

/** The ids with `id` swapped with its neighbour, or null when it is already at that end. */
export function swapped(ids: readonly string[], id: string, direction: Direction): string[] | null {
	const from = ids.indexOf(id)
	const to = direction === 'up' ? from - 1 : from + 1
	if (from < 0 || to < 0 || to >= ids.length) return null
	const next = [...ids]
	;[next[from], next[to]] = [next[to] as string, next[from] as string]
	return next
}
