import { auditEntry } from '../audit/audit.server'
import { type Db, transaction } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { swapped, type Direction } from './admin-collections.server'
import { forgetCatalog } from './catalog.server'
import type { AuditAction } from '../rules/audit-actions'

/** More would make a product page a photo album, and every one is read with the product. */
export const MAX_PRODUCT_IMAGES = 12

export type GalleryImage = { key: string; width: number | null; height: number | null }

/**
 * [R112] A Product's gallery as Store Admin edits it: images are uploads of the admin's own
 * Store, at most MAX_PRODUCT_IMAGES, in the order given. The first is the Product's main image
 * (`Product.imageKey`, on cards and in carts), rewritten in the same transaction as every change.
 */
export function productImagesRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId

	const ownProduct = async (productId: string) => {
		const product = await db.product.findFirst({ where: { id: productId, storeId }, select: { id: true } })
		if (!product) throw notFound('That product')
		return product
	}

	/** Rewrites positions 0…n-1 in `keys` order and the main image. */
	const reorder = async (tx: Db, productId: string, keys: readonly string[]) => {
		for (const [position, key] of keys.entries()) await tx.productImage.update({ where: { productId_key: { productId, key } }, data: { position } })
		await tx.product.update({ where: { id: productId }, data: { imageKey: keys[0] ?? null } })
	}

	const keysOf = async (tx: Db, productId: string) =>
		(await tx.productImage.findMany({ where: { productId }, orderBy: [{ position: 'asc' }, { key: 'asc' }], select: { key: true } })).map((row) => row.key)

	const change = async (
		productId: string,
		action: AuditAction,
		detail: Record<string, unknown>,
		work: (tx: Db, keys: string[]) => Promise<string[] | null>,
	) => {
		const product = await ownProduct(productId)
		await transaction(db, async (tx) => {
			const next = await work(tx, await keysOf(tx, product.id))
			if (!next) return
			await reorder(tx, product.id, next)
			await auditEntry(tx, admin, { action, targetType: 'product', targetId: product.id, detail })
		})
		forgetCatalog()
	}

	return {
		list(productId: string) {
			return db.productImage.findMany({
				where: { productId, storeId },
				orderBy: [{ position: 'asc' }, { key: 'asc' }],
				select: { key: true, width: true, height: true },
			})
		},

		/** Adds images at the end; one already in the gallery stays where it is. */
		add(productId: string, images: readonly GalleryImage[]) {
			return change(productId, 'product.images.add', { keys: images.map((image) => image.key) }, async (tx, keys) => {
				const fresh = images.filter((image, index) => !keys.includes(image.key) && images.findIndex((other) => other.key === image.key) === index)
				if (fresh.length === 0) return null
				if (keys.length + fresh.length > MAX_PRODUCT_IMAGES)
					throw new DomainError(400, `A product has at most ${MAX_PRODUCT_IMAGES} images: remove one first.`, 'images')
				const owned = await tx.uploadedObject.count({ where: { storeId, key: { in: fresh.map((image) => image.key) } } })
				if (owned !== fresh.length) throw new DomainError(400, 'Choose one of this store’s uploaded images.', 'images')
				for (const { key, width, height } of fresh) await tx.productImage.create({ data: { storeId, productId, position: keys.length, key, width, height } })
				return [...keys, ...fresh.map((image) => image.key)]
			})
		},

		move(productId: string, key: string, direction: Direction) {
			return change(productId, 'product.images.move', { key, direction }, async (_tx, keys) => {
				if (!keys.includes(key)) throw notFound('That image of this product')
				return swapped(keys, key, direction)
			})
		},

		/** Takes the image off the product; the upload itself stays (other products may show it). */
		remove(productId: string, key: string) {
			return change(productId, 'product.images.remove', { key }, async (tx, keys) => {
				if (!keys.includes(key)) throw notFound('That image of this product')
				await tx.productImage.delete({ where: { productId_key: { productId, key } } })
				return keys.filter((other) => other !== key)
			})
		},
	}
}
