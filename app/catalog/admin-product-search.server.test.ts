import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { ADMIN_PAGE_SIZE, adminProductsRepository } from './admin-products.server'
import { ADMIN_SEARCH_CAP } from '../rules/search-terms'

describe.each(PROVIDERS)("Store Admin's product search on %s", (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t, 'owner@example.com')).viewer
	})
	afterAll(() => t.close())

	/** A Store of its own with these products, each changed a minute after the one before. */
	async function storeWith(rows: Array<{ title: string; slug: string; status?: string; description?: string }>) {
		const { id: storeId } = await anotherStore(t.db)
		await t.db.product.createMany({
			data: rows.map(({ title, slug, status = 'active', description = '' }, i) => ({
				id: randomUUID(),
				storeId,
				title,
				slug,
				status,
				description,
				priceMinor: 500,
				updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
			})),
		})
		return { storeId, products: adminProductsRepository(t.db, { ...admin, storeId }) }
	}
	const titles = (page: { products: Array<{ title: string }> }) => page.products.map((product) => product.title)

	it('finds products of any status by the start of any word of the title, in any case, or by their exact slug, latest change first [R145]', async () => {
		const { storeId, products } = await storeWith([
			{ title: 'Enamel camp mug', slug: 'enamel-camp-mug' },
			{ title: 'Camping lantern', slug: 'lantern', status: 'draft' },
			{ title: 'Old mug', slug: 'old-mug', status: 'archived', description: 'A lantern of a mug' },
			{ title: 'Cap', slug: 'cap-a-1234' },
		])
		expect(titles(await products.page({ query: 'camp' }))).toEqual(['Camping lantern', 'Enamel camp mug'])
		expect(titles(await products.page({ query: 'MUG' }))).toEqual(['Old mug', 'Enamel camp mug'])
		expect(titles(await products.page({ query: 'enamel mug' }))).toEqual(['Enamel camp mug'])
		// A description is not searched here; the middle of a word is not its start.
		expect(titles(await products.page({ query: 'lantern' }))).toEqual(['Camping lantern'])
		expect(await products.page({ query: 'amel' })).toMatchObject({ products: [], total: 0, more: false })
		// The slug, whole, in any case.
		expect(titles(await products.page({ query: 'CAP-A-1234' }))).toEqual(['Cap'])
		expect(titles(await products.page({ query: 'old-mug' }))).toEqual(['Old mug'])
		// Within a status.
		expect(titles(await products.page({ query: 'mug', status: 'archived' }))).toEqual(['Old mug'])
		expect(titles(await products.page({ query: 'camp', status: 'active' }))).toEqual(['Enamel camp mug'])
		// A renamed product is found by its new title only.
		await t.db.product.updateMany({ where: { storeId, slug: 'lantern' }, data: { title: 'Storm lamp' } })
		expect(titles(await products.page({ query: 'storm' }))).toEqual(['Storm lamp'])
		expect(titles(await products.page({ query: 'camping' }))).toEqual([])
		// Search syntax is plain words; no word at all lists every product.
		for (const query of ['"', 'mug*', 'mug OR cap', 'title : mug', 'NEAR(mug cap)', "mug'); --", '%']) {
			await expect(products.page({ query })).resolves.toMatchObject({ more: false })
		}
		expect(await products.page({ query: '%' })).toMatchObject({ total: 4 })
		// A row carries what the list shows, not the product's description or its variants' own fields.
		const [row] = (await products.page({ query: 'cap-a-1234' })).products
		expect(row).toEqual({
			id: expect.any(String),
			slug: 'cap-a-1234',
			title: 'Cap',
			priceMinor: 500,
			status: 'active',
			updatedAt: expect.any(Date),
			stock: 0,
			priceVaries: false,
			variantCount: 0,
		})
	})

	it('never finds another Store’s products, by word or by slug [R4] [R145]', async () => {
		const mine = await storeWith([{ title: 'Shared mug', slug: 'shared-mug' }])
		const theirs = await storeWith([
			{ title: 'Shared mug', slug: 'shared-mug' },
			{ title: 'Their kettle', slug: 'their-kettle' },
		])
		expect(await mine.products.page({ query: 'kettle' })).toMatchObject({ products: [], total: 0 })
		expect(await mine.products.page({ query: 'their-kettle' })).toMatchObject({ products: [], total: 0 })
		const [found] = (await mine.products.page({ query: 'shared' })).products
		expect(await t.db.product.findUniqueOrThrow({ where: { id: found!.id }, select: { storeId: true } })).toEqual({ storeId: mine.storeId })
		expect(await theirs.products.page({ query: 'mug' })).toMatchObject({ total: 1 })
	})

	it('counts a common word up to 1,000 products and lists those, saying there are more [R145]', async () => {
		const many = ADMIN_SEARCH_CAP + 3
		const { products } = await storeWith(Array.from({ length: many }, (_, i) => ({ title: `Linen thing ${i}`, slug: `linen-${i}` })))
		const first = await products.page({ query: 'linen' })
		expect(first).toMatchObject({ total: ADMIN_SEARCH_CAP, more: true, pages: ADMIN_SEARCH_CAP / ADMIN_PAGE_SIZE })
		expect(titles(first)[0]).toBe(`Linen thing ${many - 1}`)
		const last = await products.page({ query: 'linen', page: ADMIN_SEARCH_CAP / ADMIN_PAGE_SIZE })
		expect(titles(last)).toHaveLength(ADMIN_PAGE_SIZE)
		expect(await products.page({ query: 'linen', page: ADMIN_SEARCH_CAP / ADMIN_PAGE_SIZE + 1 })).toMatchObject({ products: [], more: true })
		expect(await products.page({ query: 'thing 100' })).toMatchObject({ total: 4, more: false })
		expect(await products.page({})).toMatchObject({ total: many, more: false })
	})
})
