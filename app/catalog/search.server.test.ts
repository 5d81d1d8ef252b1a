import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { singleVariantInput } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { Viewer } from '../data/viewer'
import { adminProductsRepository } from './admin-products.server'
import { catalogRepository, forgetCatalog } from './catalog.server'
import { MAX_SEARCH_LENGTH, searchTerms } from '../rules/search-terms'

/** A word no other test's product holds, so each test sees only its own products. */
const word = () => `zq${randomBytes(5).toString('hex')}`

describe('search terms', () => {
	it('reads any text as plain words, so no search syntax reaches an engine [R110]', () => {
		expect(searchTerms('Blue  T-shirt')).toEqual(['blue', 't', 'shirt'])
		expect(searchTerms('"mug"* OR NEAR(a b) title:cup a&b|!c (d) \'; DROP TABLE products; --')).toEqual(['mug', 'or', 'near', 'a', 'b', 'title', 'cup', 'c'])
		expect(searchTerms('*** :* & | ! ( ) " \'')).toEqual([])
		expect(searchTerms('Café Ｍｕｇ 2024')).toEqual(['café', 'mug', '2024'])
	})

	it('keeps at most eight words of at most forty characters, whatever the length of the text [R110]', () => {
		const terms = searchTerms(`${'x'.repeat(10_000)} ${Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')}`)
		expect(terms).toHaveLength(8)
		expect(terms[0]).toBe('x'.repeat(40))
		expect(MAX_SEARCH_LENGTH).toBeLessThan(10_000)
	})
})

describe.each(PROVIDERS)('catalog search on %s', (provider) => {
	let t: TestDatabase
	let shopper: Viewer
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		shopper = { kind: 'guest', storeId: t.storeId, guestId: randomUUID() }
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(async () => {
		await t.db.store.delete({ where: { id: otherStoreId } })
		await t.db.$disconnect()
	})

	const add = (data: { title: string; description?: string; priceMinor?: number; status?: string; storeId?: string; createdAt?: Date }) =>
		t.db.product.create({
			data: {
				storeId: t.storeId,
				slug: `s-${randomUUID()}`,
				priceMinor: 1000,
				status: 'active',
				...data,
				variants: { create: { storeId: data.storeId ?? t.storeId, priceMinor: data.priceMinor ?? 1000, stock: 3 } },
			},
			select: { id: true, title: true },
		})
	const titles = async (terms: string[], options: { sort?: 'relevance' | 'newest' | 'price-asc' | 'price-desc' | 'name'; page?: number } = {}) =>
		(await catalogRepository(t.db, shopper).search({ terms, ...options })).products.map((product) => product.title)

	it("finds active products of the shopper's Store by every word, as a prefix, in the name or the description [R110]", async () => {
		const [colour, kind] = [word(), word()]
		await add({ title: `${colour} ${kind}mug`, description: 'Stoneware' })
		await add({ title: 'Plain cup', description: `A ${colour} glaze` })
		await add({ title: `${colour} draft`, status: 'draft' })
		await add({ title: `${colour} archived`, status: 'archived' })
		await add({ title: `${colour} elsewhere`, storeId: otherStoreId })

		expect((await titles([colour])).sort()).toEqual([`${colour} ${kind}mug`, 'Plain cup'].sort())
		expect(await titles([colour, kind])).toEqual([`${colour} ${kind}mug`])
		expect(await titles([colour.slice(0, 8)])).toHaveLength(2)
		expect(await titles([colour, 'nothingmatchesthis'])).toEqual([])
		expect(await titles([])).toEqual([])
	})

	it('answers search syntax and injection attempts as plain words, changing nothing [R110]', async () => {
		const tag = word()
		await add({ title: `${tag} near or and` })
		// Only this test's products: other test files add products to the shared database meanwhile.
		const mine = () => t.db.product.count({ where: { title: { startsWith: tag } } })
		expect(await mine()).toBe(1)
		for (const text of [`"${tag}"`, `${tag}*`, `NEAR(${tag} x)`, `${tag} OR`, `${tag}:*`, `${tag} & | ! ( )`, `${tag}'; DROP TABLE products; --`]) {
			const found = await catalogRepository(t.db, shopper).search({ terms: searchTerms(text) })
			expect(
				found.products.every((product) => product.title.startsWith(tag)),
				text,
			).toBe(true)
		}
		expect(await titles(searchTerms(`${tag} near or`))).toEqual([`${tag} near or and`])
		expect(await mine()).toBe(1)
	})

	it('follows every edit: a new name is found, the old one no longer, a deleted product never [R110]', async () => {
		const [before, after] = [word(), word()]
		const product = await add({ title: `${before} lamp` })
		expect(await titles([before])).toEqual([`${before} lamp`])
		// Written here past the repositories, so this test forgets the answers kept, as every
		// committed write of a Product does (the next test proves an admin's edit does it).
		await t.db.product.update({ where: { id: product.id }, data: { title: `${after} lamp`, description: 'brass' } })
		forgetCatalog()
		expect(await titles([before])).toEqual([])
		expect(await titles([after, 'brass'])).toEqual([`${after} lamp`])
		await t.db.product.delete({ where: { id: product.id } })
		forgetCatalog()
		expect(await titles([after])).toEqual([])
	})

	it("keeps an answer for every shopper alike until an admin's edit, which the next search follows [R110]", async () => {
		const [before, after] = [word(), word()]
		const product = await add({ title: `${before} vase` })
		expect(await titles([before])).toEqual([`${before} vase`])
		// Kept: another shopper gets the same answer without the index being asked again.
		const other: Viewer = { kind: 'guest', storeId: t.storeId, guestId: randomUUID() }
		await t.db.product.update({ where: { id: product.id }, data: { title: `${after} vase` } })
		expect((await catalogRepository(t.db, other).search({ terms: [before] })).products.map((found) => found.title)).toEqual([`${before} vase`])
		forgetCatalog()
		// An admin's edit forgets it once committed.
		const admin = (await signUpAdmin(t)).viewer
		expect(await titles([after])).toEqual([`${after} vase`])
		await adminProductsRepository(t.db, admin).update(
			product.id,
			singleVariantInput({
				title: `${before} vase again`,
				slug: `s-${randomUUID()}`,
				description: '',
				priceMinor: 1000,
				stock: 3,
				status: 'active' as const,
				imageKey: null,
			}),
		)
		expect(await titles([after])).toEqual([])
		expect(await titles([before])).toEqual([`${before} vase again`])
	})

	it('sorts by price, name and newest, and pages with a total [R110]', async () => {
		const tag = word()
		await add({ title: `${tag} bravo`, priceMinor: 300, createdAt: new Date('2026-01-02') })
		await add({ title: `${tag} alpha`, priceMinor: 500, createdAt: new Date('2026-01-01') })
		await add({ title: `${tag} charlie`, priceMinor: 100, createdAt: new Date('2026-01-03') })
		expect(await titles([tag], { sort: 'price-asc' })).toEqual([`${tag} charlie`, `${tag} bravo`, `${tag} alpha`])
		expect(await titles([tag], { sort: 'price-desc' })).toEqual([`${tag} alpha`, `${tag} bravo`, `${tag} charlie`])
		expect(await titles([tag], { sort: 'name' })).toEqual([`${tag} alpha`, `${tag} bravo`, `${tag} charlie`])
		expect(await titles([tag], { sort: 'newest' })).toEqual([`${tag} charlie`, `${tag} bravo`, `${tag} alpha`])
		expect(await titles([tag], { sort: 'relevance' })).toHaveLength(3)

		const many = word()
		for (let i = 0; i < 14; i++) await add({ title: `${many} item ${String(i).padStart(2, '0')}` })
		const first = await catalogRepository(t.db, shopper).search({ terms: [many], sort: 'name' })
		const second = await catalogRepository(t.db, shopper).search({ terms: [many], sort: 'name', page: 2 })
		expect({ total: first.total, pages: first.pages, first: first.products.length, second: second.products.length }).toEqual({
			total: 14,
			pages: 2,
			first: 12,
			second: 2,
		})
		expect(second.products.map((product) => product.title)).toEqual([`${many} item 12`, `${many} item 13`])
	})
})
