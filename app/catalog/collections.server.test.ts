import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer, Viewer } from '../data/viewer'
import { COLLECTION_PRODUCTS_PAGE_SIZE, adminCollectionsRepository, swapped } from './admin-collections.server'
import { catalogRepository } from './catalog.server'

describe('swapping a neighbour', () => {
	it('moves one place up or down and nowhere past either end [R111]', () => {
		expect(swapped(['a', 'b', 'c'], 'b', 'up')).toEqual(['b', 'a', 'c'])
		expect(swapped(['a', 'b', 'c'], 'b', 'down')).toEqual(['a', 'c', 'b'])
		expect(swapped(['a', 'b', 'c'], 'a', 'up')).toBeNull()
		expect(swapped(['a', 'b', 'c'], 'c', 'down')).toBeNull()
		expect(swapped(['a', 'b', 'c'], 'x', 'up')).toBeNull()
	})
})

describe.each(PROVIDERS)('collections on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let shopper: Viewer
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
		shopper = { kind: 'guest', storeId: t.storeId, guestId: randomUUID() }
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(async () => {
		await t.db.store.delete({ where: { id: otherStoreId } })
		await t.db.$disconnect()
	})

	const slug = (label: string) => `${label}-${randomUUID().slice(0, 8)}`
	const product = (title: string, data: { status?: string; storeId?: string } = {}) =>
		t.db.product.create({
			data: {
				storeId: t.storeId,
				slug: slug('p'),
				title,
				priceMinor: 500,
				status: 'active',
				variants: { create: { storeId: t.storeId, priceMinor: 500, stock: 2 } },
				...data,
			},
			select: { id: true },
		})
	const collections = () => adminCollectionsRepository(t.db, admin)
	const shown = async (collectionSlug: string) => (await catalogRepository(t.db, shopper).collection(collectionSlug))?.products.map((p) => p.title) ?? null

	it('lists collections in the order Store Admin gives them, moving one place at a time [R111]', async () => {
		const made: Array<{ title: string; id: string }> = []
		for (const title of ['First', 'Second', 'Third'])
			made.push({ title, ...(await collections().create({ title, slug: slug(title.toLowerCase()), description: '' })) })
		const order = async () => (await collections().list()).map((row) => row.id).filter((id) => made.some((m) => m.id === id))
		expect(await order()).toEqual(made.map((m) => m.id))
		await collections().move(made[2]!.id, 'up')
		expect(await order()).toEqual([made[0]!.id, made[2]!.id, made[1]!.id])
		await collections().move(made[0]!.id, 'up')
		expect(await order()).toEqual([made[0]!.id, made[2]!.id, made[1]!.id])
		const shopperTitles = (await catalogRepository(t.db, shopper).collectionsPage()).collections.map((c) => c.title)
		expect(shopperTitles.filter((title) => ['First', 'Second', 'Third'].includes(title))).toEqual(['First', 'Third', 'Second'])
	})

	it('shows a collection’s active products in its order, a product in several collections [R111]', async () => {
		const summer = await collections().create({ title: 'Summer', slug: slug('summer'), description: 'Hot days' })
		const gifts = await collections().create({ title: 'Gifts', slug: slug('gifts'), description: '' })
		const [hat, fan, draft] = [await product('Hat'), await product('Fan'), await product('Hidden', { status: 'draft' })]
		for (const id of [hat.id, fan.id, draft.id]) await collections().addProduct(summer.id, id)
		await collections().addProduct(summer.id, hat.id)
		await collections().addProduct(gifts.id, hat.id)
		const { collection: s } = await collections().get(summer.id)
		const { collection: g } = await collections().get(gifts.id)

		expect(await shown(s.slug)).toEqual(['Hat', 'Fan'])
		expect(await shown(g.slug)).toEqual(['Hat'])
		expect((await collections().get(summer.id)).products.map((p) => p.title)).toEqual(['Hat', 'Fan', 'Hidden'])

		await collections().moveProduct(summer.id, fan.id, 'up')
		expect(await shown(s.slug)).toEqual(['Fan', 'Hat'])
		await collections().removeProduct(summer.id, fan.id)
		expect(await shown(s.slug)).toEqual(['Hat'])

		await t.db.product.delete({ where: { id: hat.id } })
		await collections().moveProduct(summer.id, draft.id, 'up')
		expect(await shown(g.slug)).toEqual([])
		await collections().delete(gifts.id)
		expect(await shown(g.slug)).toBeNull()
		expect(await t.db.product.count({ where: { id: draft.id } })).toBe(1)
	})

	it("refuses another Store's product or collection and a slug already taken, changing nothing [R111]", async () => {
		const mine = await collections().create({ title: 'Mine', slug: slug('mine'), description: '' })
		const theirs = await t.db.collection.create({ data: { storeId: otherStoreId, slug: 'theirs', title: 'Theirs' }, select: { id: true, slug: true } })
		const foreign = await product('Foreign', { storeId: otherStoreId })
		const audit = () => t.db.auditEntry.count({ where: { storeId: t.storeId, targetType: 'collection' } })
		const before = await audit()

		await expect(collections().addProduct(mine.id, foreign.id)).rejects.toMatchObject({ status: 404 })
		await expect(collections().addProduct(theirs.id, (await product('Local')).id)).rejects.toMatchObject({ status: 404 })
		await expect(collections().get(theirs.id)).rejects.toMatchObject({ status: 404 })
		await expect(collections().update(theirs.id, { title: 'Taken', slug: 'taken', description: '' })).rejects.toMatchObject({ status: 404 })
		await expect(collections().delete(theirs.id)).rejects.toMatchObject({ status: 404 })
		await expect(collections().move(theirs.id, 'up')).rejects.toMatchObject({ status: 404 })
		await expect(collections().removeProduct(mine.id, foreign.id)).rejects.toMatchObject({ status: 404 })
		await expect(collections().moveProduct(mine.id, foreign.id, 'up')).rejects.toMatchObject({ status: 404 })
		const { collection } = await collections().get(mine.id)
		await expect(collections().create({ title: 'Again', slug: collection.slug, description: '' })).rejects.toMatchObject({ status: 409, field: 'slug' })

		expect(await audit()).toBe(before)
		expect(await t.db.collectionProduct.count({ where: { OR: [{ collectionId: theirs.id }, { productId: foreign.id }] } })).toBe(0)
		expect(await t.db.collection.findUniqueOrThrow({ where: { id: theirs.id }, select: { slug: true } })).toEqual({ slug: 'theirs' })
		expect(await shown('theirs')).toBeNull()
	})
	it('lists a large collection a page at a time and moves a product by swapping two rows [R146]', async () => {
		const { id } = await collections().create({ title: 'Everything', slug: slug('everything'), description: '' })
		const many = 2 * COLLECTION_PRODUCTS_PAGE_SIZE + 10
		const ids: string[] = []
		for (let i = 0; i < many; i++) ids.push((await product(`Item ${String(i).padStart(3, '0')}`)).id)
		await t.db.collectionProduct.createMany({ data: ids.map((productId, position) => ({ collectionId: id, productId, position })) })
		const titles = (page: { products: Array<{ title: string }> }) => page.products.map((p) => p.title)
		const first = await collections().get(id)
		expect(first).toMatchObject({ total: many, page: 1, pages: 3, offset: 0 })
		expect(titles(first)).toHaveLength(COLLECTION_PRODUCTS_PAGE_SIZE)
		expect(titles(first)[0]).toBe('Item 000')
		const last = await collections().get(id, { page: 3 })
		expect(last).toMatchObject({ page: 3, offset: 2 * COLLECTION_PRODUCTS_PAGE_SIZE })
		expect(titles(last)).toEqual(Array.from({ length: 10 }, (_, i) => `Item ${String(2 * COLLECTION_PRODUCTS_PAGE_SIZE + i).padStart(3, '0')}`))
		expect((await collections().get(id, { page: 4 })).products).toEqual([])

		// The first product of page 2 moves up: it and the last of page 1 trade places, nothing else moves.
		const positions = async () => new Map((await t.db.collectionProduct.findMany({ where: { collectionId: id } })).map((row) => [row.productId, row.position]))
		const before = await positions()
		const moving = ids[COLLECTION_PRODUCTS_PAGE_SIZE]!
		const neighbour = ids[COLLECTION_PRODUCTS_PAGE_SIZE - 1]!
		await collections().moveProduct(id, moving, 'up')
		const after = await positions()
		expect(
			[...after]
				.filter(([productId, position]) => before.get(productId) !== position)
				.map(([productId]) => productId)
				.sort(),
		).toEqual([moving, neighbour].sort())
		expect(titles(await collections().get(id)).at(-1)).toBe(`Item ${String(COLLECTION_PRODUCTS_PAGE_SIZE).padStart(3, '0')}`)
		// At either end nothing moves; a product not in the collection, or another Store's collection, is not found.
		await collections().moveProduct(id, ids[0]!, 'up')
		await collections().moveProduct(id, ids.at(-1)!, 'down')
		expect(await positions()).toEqual(after)
		await expect(collections().moveProduct(id, (await product('Outside')).id, 'up')).rejects.toMatchObject({ status: 404 })
		await expect(adminCollectionsRepository(t.db, { ...admin, storeId: otherStoreId }).moveProduct(id, moving, 'down')).rejects.toMatchObject({ status: 404 })
	})

	it('moves a product among neighbours that share a position, in the order shoppers see them [R146]', async () => {
		const { id, slug: tiedSlug } = await collections()
			.create({ title: 'Tied', slug: slug('tied'), description: '' })
			.then(async ({ id }) => ({ id, slug: (await collections().get(id)).collection.slug }))
		const made = [await product('Tie A'), await product('Tie B'), await product('Tie C')]
		await t.db.collectionProduct.createMany({ data: made.map(({ id: productId }) => ({ collectionId: id, productId, position: 0 })) })
		const order = await shown(tiedSlug)
		expect(order).toHaveLength(3)
		await collections().moveProduct(id, made.find((_, i) => order![2] === `Tie ${'ABC'[i]}`)!.id, 'up')
		expect(await shown(tiedSlug)).toEqual([order![0], order![2], order![1]])
	})
})
