import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { adminProductsRepository } from './admin-products.server'
import { singleVariantInput } from '../../tests/helpers/commerce'
import { catalogRepository } from './catalog.server'
import { MAX_PRODUCT_IMAGES, productImagesRepository } from './product-images.server'

describe.each(PROVIDERS)('product galleries on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(async () => {
		await t.db.store.delete({ where: { id: otherStoreId } })
		await t.db.$disconnect()
	})

	const upload = async (storeId = t.storeId) => {
		const key = `stores/${storeId}/uploads/${randomBytes(16).toString('hex')}.png`
		await t.db.uploadedObject.create({ data: { storeId, key, contentType: 'image/png', byteSize: 10, sha256: 'x'.repeat(64) } })
		return { key, width: 640, height: 480 }
	}
	const product = (storeId = t.storeId) =>
		t.db.product.create({
			data: {
				storeId,
				slug: `g-${randomUUID()}`,
				title: 'Lamp',
				priceMinor: 100,
				status: 'active',
				variants: { create: { storeId, priceMinor: 100, stock: 1 } },
			},
			select: { id: true, slug: true },
		})
	const gallery = () => productImagesRepository(t.db, admin)
	const state = async (productId: string) => ({
		keys: (await gallery().list(productId)).map((image) => image.key),
		main: (await t.db.product.findUniqueOrThrow({ where: { id: productId }, select: { imageKey: true } })).imageKey,
	})

	it('keeps several images in the order Store Admin gives, the first being the main image [R112]', async () => {
		const lamp = await product()
		const [a, b, c] = [await upload(), await upload(), await upload()]
		await gallery().add(lamp.id, [a, b])
		await gallery().add(lamp.id, [c, a])
		expect(await state(lamp.id)).toEqual({ keys: [a.key, b.key, c.key], main: a.key })
		expect((await gallery().list(lamp.id))[0]).toMatchObject({ width: 640, height: 480 })

		await gallery().move(lamp.id, c.key, 'up')
		await gallery().move(lamp.id, c.key, 'up')
		expect(await state(lamp.id)).toEqual({ keys: [c.key, a.key, b.key], main: c.key })
		await gallery().move(lamp.id, c.key, 'up')
		expect(await state(lamp.id)).toEqual({ keys: [c.key, a.key, b.key], main: c.key })

		await gallery().remove(lamp.id, c.key)
		expect(await state(lamp.id)).toEqual({ keys: [a.key, b.key], main: a.key })
		const shopper = catalogRepository(t.db, { kind: 'guest', storeId: t.storeId, guestId: randomUUID() })
		expect((await shopper.bySlug(lamp.slug))?.images.map((image) => image.key)).toEqual([a.key, b.key])

		await gallery().remove(lamp.id, a.key)
		await gallery().remove(lamp.id, b.key)
		expect(await state(lamp.id)).toEqual({ keys: [], main: null })
	})

	it("refuses another Store's upload or product, an image not on the product and more than the limit, changing nothing [R112]", async () => {
		const lamp = await product()
		const mine = await upload()
		await gallery().add(lamp.id, [mine])
		const before = await state(lamp.id)
		const audit = () => t.db.auditEntry.count({ where: { targetId: lamp.id } })
		const entries = await audit()

		await expect(gallery().add(lamp.id, [await upload(otherStoreId)])).rejects.toMatchObject({ status: 400 })
		await expect(gallery().add(lamp.id, [{ key: `stores/${t.storeId}/uploads/${'0'.repeat(32)}.png`, width: 1, height: 1 }])).rejects.toMatchObject({
			status: 400,
		})
		const theirs = await product(otherStoreId)
		await expect(gallery().add(theirs.id, [await upload()])).rejects.toMatchObject({ status: 404 })
		await expect(gallery().remove(theirs.id, mine.key)).rejects.toMatchObject({ status: 404 })
		await expect(gallery().remove(lamp.id, (await upload()).key)).rejects.toMatchObject({ status: 404 })
		await expect(gallery().move(lamp.id, (await upload()).key, 'down')).rejects.toMatchObject({ status: 404 })
		const many = []
		for (let i = 0; i < MAX_PRODUCT_IMAGES; i++) many.push(await upload())
		await expect(gallery().add(lamp.id, many)).rejects.toMatchObject({ status: 400, field: 'images' })

		expect(await state(lamp.id)).toEqual(before)
		expect(await audit()).toBe(entries)
		expect(await t.db.productImage.count({ where: { productId: theirs.id } })).toBe(0)
	})

	it('makes an upload named by the product form the main image, first in the gallery [R112]', async () => {
		const [a, b] = [await upload(), await upload()]
		const products = adminProductsRepository(t.db, admin)
		const input = singleVariantInput({ title: 'Vase', slug: `v-${randomUUID()}`, description: '', priceMinor: 100, stock: 1, status: 'active' as const })
		const created = await products.create({ ...input, imageKey: a.key })
		expect(await state(created.id)).toEqual({ keys: [a.key], main: a.key })
		await products.update(created.id, { ...input, imageKey: b.key })
		expect(await state(created.id)).toEqual({ keys: [b.key, a.key], main: b.key })
		await products.update(created.id, { ...input, title: 'Tall vase' })
		expect(await state(created.id)).toEqual({ keys: [b.key, a.key], main: b.key })
		await expect(products.update(created.id, { ...input, imageKey: (await upload(otherStoreId)).key })).rejects.toMatchObject({ status: 400 })
		expect(await state(created.id)).toEqual({ keys: [b.key, a.key], main: b.key })
	})
})
