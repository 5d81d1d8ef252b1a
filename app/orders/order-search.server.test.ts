import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderRow } from '../../tests/helpers/commerce'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { ADMIN_ORDERS_PAGE_SIZE, adminOrdersRepository } from './admin-orders.server'
import { ADMIN_SEARCH_CAP } from '../rules/search-terms'

describe.each(PROVIDERS)("Store Admin's Order search on %s", (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t, 'owner@example.com')).viewer
	})
	afterAll(() => t.close())

	/** A Store of its own with an offline Connection, and Orders written straight to it. */
	async function storeWithOrders(rows: Array<{ email: string; status?: string }>) {
		const { id: storeId } = await anotherStore(t.db)
		const { id: connectionId } = await t.db.connection.create({
			data: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		const created = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000)
		await t.db.order.createMany({
			data: rows.map(({ email, status = 'paid' }, i) => orderRow({ storeId, connectionId, number: 1001 + i, email, status, createdAt: created(i) })),
		})
		return { storeId, orders: adminOrdersRepository(t.db, { ...admin, storeId }) }
	}
	const numbers = (page: { orders: Array<{ number: number }> }) => page.orders.map((order) => order.number)

	it('finds Orders by the start of any word of the email, in any case, and by number, newest first [R144]', async () => {
		const { orders } = await storeWithOrders([
			{ email: 'ada.lovelace@example.com' }, // 1001
			{ email: 'grace@navy.example.org' }, // 1002
			{ email: 'ada@analytical.example.com' }, // 1003
			{ email: 'buyer1004@mail.example' }, // 1004
		])
		expect(numbers(await orders.page({ query: 'ada' }))).toEqual([1003, 1001])
		expect(numbers(await orders.page({ query: 'LOVELACE' }))).toEqual([1001])
		expect(numbers(await orders.page({ query: 'example' }))).toEqual([1004, 1003, 1002, 1001])
		expect(numbers(await orders.page({ query: 'ada@analytical' }))).toEqual([1003])
		expect(numbers(await orders.page({ query: 'navy.example.org' }))).toEqual([1002])
		// Every word must match; the middle of a word is not a word's start.
		expect(await orders.page({ query: 'ada navy' })).toMatchObject({ orders: [], total: 0, more: false })
		expect(await orders.page({ query: 'velace' })).toMatchObject({ orders: [], total: 0 })
		// A number finds that Order, with or without "#", and any email with a word starting so.
		expect(numbers(await orders.page({ query: '#1002' }))).toEqual([1002])
		expect(numbers(await orders.page({ query: '1004' }))).toEqual([1004])
		expect(numbers(await orders.page({ query: '9999' }))).toEqual([])
		// What an index query language would read as syntax is plain words here, never an error.
		for (const query of ['"', 'ada*', 'ada OR grace', 'email : ada', 'NEAR(ada grace)', "ada'); --", '%', '_']) {
			await expect(orders.page({ query })).resolves.toMatchObject({ more: false })
		}
		// A question without a word lists every Order.
		expect(await orders.page({ query: '@@' })).toMatchObject({ total: 4 })
	})

	it('searches within one status and follows an Order as its status and email change [R144]', async () => {
		const { storeId, orders } = await storeWithOrders([
			{ email: 'ada@example.com', status: 'awaiting_payment' },
			{ email: 'ada@example.com', status: 'paid' },
			{ email: 'ada@example.com', status: 'fulfilled' },
		])
		expect(numbers(await orders.page({ query: 'ada', status: 'awaiting_payment' }))).toEqual([1001])
		expect(numbers(await orders.page({ query: 'ada', status: 'paid' }))).toEqual([1002])
		await t.db.order.update({ where: { storeId_number: { storeId, number: 1001 } }, data: { status: 'paid' } })
		expect(numbers(await orders.page({ query: 'ada', status: 'paid' }))).toEqual([1002, 1001])
		expect(await orders.page({ query: 'ada', status: 'awaiting_payment' })).toMatchObject({ orders: [], total: 0 })
		await t.db.order.update({ where: { storeId_number: { storeId, number: 1003 } }, data: { email: 'grace@example.com' } })
		expect(numbers(await orders.page({ query: 'ada' }))).toEqual([1002, 1001])
		expect(numbers(await orders.page({ query: 'grace' }))).toEqual([1003])
		await t.db.order.deleteMany({ where: { storeId, number: 1002 } })
		expect(numbers(await orders.page({ query: 'ada' }))).toEqual([1001])
	})

	it('never finds another Store’s Orders, by word or by number [R4] [R144]', async () => {
		const mine = await storeWithOrders([{ email: 'shared@example.com' }])
		const theirs = await storeWithOrders([{ email: 'shared@example.com' }, { email: 'only-theirs@example.com' }])
		expect(await mine.orders.page({ query: 'shared' })).toMatchObject({ total: 1 })
		expect(await mine.orders.page({ query: 'only' })).toMatchObject({ orders: [], total: 0 })
		expect(await mine.orders.page({ query: '1002' })).toMatchObject({ orders: [], total: 0 })
		expect(await theirs.orders.page({ query: 'shared' })).toMatchObject({ total: 1 })
		const [found] = (await mine.orders.page({ query: 'shared' })).orders
		expect(found).toMatchObject({ number: 1001, email: 'shared@example.com' })
		expect(await t.db.order.findUniqueOrThrow({ where: { id: found!.id }, select: { storeId: true } })).toEqual({ storeId: mine.storeId })
	})

	it('lists at most the newest 1,000 matches, paged by number within them, and says there are more [R142] [R144]', async () => {
		const many = ADMIN_SEARCH_CAP + 3
		const { orders } = await storeWithOrders([
			...Array.from({ length: many }, (_, i) => ({ email: `common${i}@shop.example` })),
			{ email: 'rare@shop.example' },
		])
		const newest = 1001 + many
		const first = await orders.page({ query: 'shop' })
		expect(first).toMatchObject({ total: ADMIN_SEARCH_CAP, more: true, newer: null })
		expect(numbers(first)).toEqual(Array.from({ length: ADMIN_ORDERS_PAGE_SIZE }, (_, i) => newest - i))
		// Older pages follow the keys down to the 1,000th newest match, and no further.
		let page = first
		let pages = 1
		const seen = [...numbers(first)]
		while (page.older) {
			page = await orders.page({ query: 'shop', cursor: { before: page.older } })
			seen.push(...numbers(page))
			pages++
		}
		expect(pages).toBe(ADMIN_SEARCH_CAP / ADMIN_ORDERS_PAGE_SIZE)
		expect(seen).toEqual(Array.from({ length: ADMIN_SEARCH_CAP }, (_, i) => newest - i))
		// "Newer" from the last page leads back up, a full page at a time.
		const back = await orders.page({ query: 'shop', cursor: { after: page.newer! } })
		expect(numbers(back)).toEqual(seen.slice(-2 * ADMIN_ORDERS_PAGE_SIZE, -ADMIN_ORDERS_PAGE_SIZE))
		// Under the cap the count is exact; the whole list is counted from the kept counts.
		expect(await orders.page({ query: 'rare' })).toMatchObject({ total: 1, more: false })
		expect(await orders.page({ query: 'common100' })).toMatchObject({ total: 4, more: false })
		expect(await orders.page({})).toMatchObject({ total: many + 1, more: false })
	})
})
