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

/** [R146] Products of a collection one page of its Store Admin page lists. */
export const COLLECTION_PRODUCTS_PAGE_SIZE = 60

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

	/**
	 * The first PICKABLE products by title that are not archived and not in the collection: the
	 * active ones and the drafts each read in title order from the (Store, status, title, id)
	 * index until enough are found, then merged. One read of both statuses would sort every
	 * product of the Store.
	 */
	const pickableProducts = async (collectionId: string) => {
		const byStatus = await Promise.all(
			(['active', 'draft'] as const).map((status) =>
				db.product.findMany({
					where: { storeId, status, collections: { none: { collectionId } } },
					orderBy: [{ title: 'asc' }, { id: 'asc' }],
					take: PICKABLE,
					select: { id: true, title: true },
				}),
			),
		)
		return byStatus
			.flat()
			.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
			.slice(0, PICKABLE)
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

		/**
		 * [R146] A collection and one page of its products, in the order shoppers see them, with how
		 * many it holds: a collection of thousands opens as fast as one of three. A page past the
		 * last is empty.
		 */
		async get(id: string, { page = 1 }: { page?: number } = {}) {
			const collection = await own(id)
			const [members, total, pickable] = await Promise.all([
				db.collectionProduct.findMany({
					where: { collectionId: collection.id },
					orderBy: [{ position: 'asc' }, { productId: 'asc' }],
					skip: (page - 1) * COLLECTION_PRODUCTS_PAGE_SIZE,
					take: COLLECTION_PRODUCTS_PAGE_SIZE,
					select: { product: { select: { id: true, title: true, slug: true, status: true } } },
				}),
				db.collectionProduct.count({ where: { collectionId: collection.id } }),
				pickableProducts(collection.id),
			])
			return {
				collection,
				products: members.map((member) => member.product),
				total,
				page,
				pages: Math.max(1, Math.ceil(total / COLLECTION_PRODUCTS_PAGE_SIZE)),
				offset: (page - 1) * COLLECTION_PRODUCTS_PAGE_SIZE,
				pickable,
			}
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

		/**
		 * [R146] Swaps a product with its neighbour in the collection: two rows written, however many
		 * products it holds. Neighbours at the same position (rows written before positions were
		 * kept distinct) are numbered anew once, in the order shoppers see them, and then swapped.
		 */
		async moveProduct(id: string, productId: string, direction: Direction) {
			const collection = await own(id)
			const order = direction === 'up' ? ('desc' as const) : ('asc' as const)
			await transaction(db, async (tx) => {
				const key = (member: string) => ({ collectionId_productId: { collectionId: collection.id, productId: member } })
				const moving = await tx.collectionProduct.findUnique({ where: key(productId), select: { position: true } })
				if (!moving) throw notFound('That product in this collection')
				// The neighbour the way it moves, in shoppers' order (position, then product id).
				const past = <T>(value: T) => (direction === 'up' ? { lt: value } : { gt: value })
				const neighbour = await tx.collectionProduct.findFirst({
					where: { collectionId: collection.id, OR: [{ position: past(moving.position) }, { position: moving.position, productId: past(productId) }] },
					orderBy: [{ position: order }, { productId: order }],
					select: { productId: true, position: true },
				})
				if (!neighbour) return
				if (neighbour.position !== moving.position) {
					await tx.collectionProduct.update({ where: key(productId), data: { position: neighbour.position } })
					await tx.collectionProduct.update({ where: key(neighbour.productId), data: { position: moving.position } })
					return
				}
				const members = await tx.collectionProduct.findMany({
					where: { collectionId: collection.id },
					orderBy: [{ position: 'asc' }, { productId: 'asc' }],
					select: { productId: true },
				})
				const reordered = swapped(
					members.map((member) => member.productId),
					productId,
					direction,
				)
				if (!reordered) return
				for (const [position, member] of reordered.entries()) await tx.collectionProduct.update({ where: key(member), data: { position } })
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
