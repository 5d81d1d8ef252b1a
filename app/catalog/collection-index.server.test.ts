import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer, Viewer } from '../data/viewer'
import { adminCollectionsRepository } from './admin-collections.server'
import { COLLECTIONS_PAGE_SIZE, HOME_COLLECTION_LINKS, catalogRepository } from './catalog.server'

/**
 * The home page's collection links and the `/collections` index, each on a Store of its own so
 * the counts are exact: collections made by other test files never land in it.
 */
describe.each(PROVIDERS)('the collection index on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer
	let shopper: Viewer
	let otherStoreId: string
	/** Titles in the order Store Admin gave them, as made so far. */
	const made: string[] = []

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
		shopper = { kind: 'guest', storeId: t.storeId, guestId: randomUUID() }
		otherStoreId = (await anotherStore(t.db)).id
		// Another Store's collections come first in every order, and must never show.
		for (let index = 0; index < 20; index++)
			await t.db.collection.create({ data: { storeId: otherStoreId, slug: `theirs-${index}`, title: `Theirs ${index}`, position: -1 } })
	})
	afterAll(async () => {
		await t?.close()
	})

	const catalog = () => catalogRepository(t.db, shopper)
	/** Makes collections through Store Admin until the Store has `count`, each forgetting the cache as an edit does. */
	async function makeUpTo(count: number) {
		while (made.length < count) {
			const title = `Shelf ${String(made.length + 1).padStart(3, '0')}`
			await adminCollectionsRepository(t.db, admin).create({ title, slug: `shelf-${made.length + 1}-${randomUUID().slice(0, 6)}`, description: '' })
			made.push(title)
		}
	}
	const home = async () => {
		const { links, total } = await catalog().homeCollections()
		return { titles: links.map((link) => link.title), total }
	}
	const indexPage = async (page: number) => {
		const found = await catalog().collectionsPage({ page })
		return { ...found, titles: found.collections.map((collection) => collection.title) }
	}

	it('an empty Store links no collection and its index is an empty page, not an error [R141]', async () => {
		expect(await home()).toEqual({ titles: [], total: 0 })
		expect(await indexPage(1)).toMatchObject({ titles: [], total: 0, page: 1, pages: 1 })
	})

	it('with 3 collections the home page links all of them in order, with no link to more [R141]', async () => {
		await makeUpTo(3)
		expect(await home()).toEqual({ titles: made.slice(0, 3), total: 3 })
		expect(await indexPage(1)).toMatchObject({ titles: made, total: 3, pages: 1 })
	})

	it('with 13 collections the home page links the first 12 and counts 13 [R141]', async () => {
		await makeUpTo(13)
		const shown = await home()
		expect(HOME_COLLECTION_LINKS).toBe(12)
		expect(shown.titles).toEqual(made.slice(0, 12))
		expect(shown.total).toBe(13)
		expect((await indexPage(1)).titles).toEqual(made)
	})

	it('with 40 collections the home page still links 12, counts 40, and keeps the order Store Admin gives [R141]', async () => {
		await makeUpTo(40)
		expect(await home()).toEqual({ titles: made.slice(0, 12), total: 40 })
		// Moving the last one to the top shows at once, on both pages.
		const last = (await adminCollectionsRepository(t.db, admin).list()).at(-1)!
		for (let step = 0; step < 39; step++) await adminCollectionsRepository(t.db, admin).move(last.id, 'up')
		const reordered = [made.at(-1)!, ...made.slice(0, -1)]
		expect(await home()).toEqual({ titles: reordered.slice(0, 12), total: 40 })
		expect((await indexPage(1)).titles).toEqual(reordered)
		for (let step = 0; step < 39; step++) await adminCollectionsRepository(t.db, admin).move(last.id, 'down')
		expect((await home()).titles).toEqual(made.slice(0, 12))
	}, 60_000)

	it('a rename or a delete in Store Admin shows on the home page and the index at once [R141]', async () => {
		const first = (await adminCollectionsRepository(t.db, admin).list())[0]!
		const { collection } = await adminCollectionsRepository(t.db, admin).get(first.id)
		await adminCollectionsRepository(t.db, admin).update(first.id, { title: 'Renamed shelf', slug: collection.slug, description: '' })
		expect((await home()).titles[0]).toBe('Renamed shelf')
		expect((await indexPage(1)).titles[0]).toBe('Renamed shelf')
		await adminCollectionsRepository(t.db, admin).delete(first.id)
		made.shift()
		expect(await home()).toEqual({ titles: made.slice(0, 12), total: 39 })
		expect((await indexPage(1)).titles).toEqual(made)
	})

	it('the index pages past its size in order, a page past the end is empty, another Store never shows [R141]', async () => {
		await makeUpTo(COLLECTIONS_PAGE_SIZE + 5)
		const first = await indexPage(1)
		const second = await indexPage(2)
		expect(first).toMatchObject({ total: made.length, page: 1, pages: 2 })
		expect(first.titles).toEqual(made.slice(0, COLLECTIONS_PAGE_SIZE))
		expect(second.titles).toEqual(made.slice(COLLECTIONS_PAGE_SIZE))
		expect(await indexPage(3)).toMatchObject({ titles: [], total: made.length, page: 3, pages: 2 })
		const everyTitle = [...first.titles, ...second.titles, ...(await home()).titles]
		expect(everyTitle.filter((title) => title.startsWith('Theirs'))).toEqual([])
		// The other Store sees only its own, and the same bound.
		const theirs = catalogRepository(t.db, { kind: 'guest', storeId: otherStoreId, guestId: randomUUID() })
		expect(await theirs.homeCollections()).toMatchObject({ total: 20 })
		expect((await theirs.homeCollections()).links).toHaveLength(12)
		expect((await theirs.collectionsPage()).collections.every((collection) => collection.title.startsWith('Theirs'))).toBe(true)
	}, 60_000)

	it('the home page reads at most 13 collection rows, however many the Store has [R141]', async () => {
		const reads: Array<{ take?: number }> = []
		const counted = new Proxy(t.db, {
			get(target, property, receiver) {
				if (property !== 'collection') return Reflect.get(target, property, receiver)
				return {
					...target.collection,
					findMany: (args: { take?: number }) => {
						reads.push(args)
						return target.collection.findMany(args as never)
					},
					count: (args: never) => target.collection.count(args),
				}
			},
		})
		// A write forgets the cache, so this read goes to the database.
		await makeUpTo(made.length + 1)
		const { links, total } = await catalogRepository(counted, shopper).homeCollections()
		expect(links).toHaveLength(HOME_COLLECTION_LINKS)
		expect(total).toBe(made.length)
		expect(reads).toEqual([expect.objectContaining({ take: HOME_COLLECTION_LINKS + 1 })])
	})
})
