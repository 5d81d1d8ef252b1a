import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderRow } from '../../tests/helpers/commerce'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin, signUpCustomer } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { ADMIN_SEARCH_CAP } from '../rules/search-terms'
import { CUSTOMERS_PAGE_SIZE, adminCustomersRepository } from './admin-customers.server'

describe.each(PROVIDERS)("Store Admin's customers on %s", (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer
	let ada: string
	let otherStoreId: string

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		const me = await signUpAdmin(t, 'owner@example.com')
		await t.db.user.update({ where: { id: me.userId }, data: { role: 'admin' } })
		admin = me.viewer
		ada = (await signUpCustomer(t.auth, 'ada@example.com')).userId
		await t.db.user.update({ where: { id: ada }, data: { name: 'Ada Lovelace' } })
		await signUpCustomer(t.auth, 'grace@example.com')
		otherStoreId = (await anotherStore(t.db)).id
		await t.db.user.create({ data: { id: randomUUID(), name: 'Ada Elsewhere', email: 'ada@other.example.com', storeId: otherStoreId } })
		const connection = await t.db.connection.create({
			data: { storeId: t.storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		let number = 2000
		for (const [captured, refunded, status] of [
			[1500, 0, 'fulfilled'],
			[2000, 500, 'refunded'],
			[0, 0, 'awaiting_payment'],
		] as const) {
			await t.db.order.create({
				data: orderRow({
					storeId: t.storeId,
					connectionId: connection.id,
					userId: ada,
					number: ++number,
					email: 'ada@example.com',
					name: 'Ada',
					totalMinor: 2000,
					capturedMinor: captured,
					refundedMinor: refunded,
					status,
				}),
			})
		}
	})
	afterAll(() => t.close())

	it('lists the accounts of this Store that are not admins, with orders and what they spent, searched by name or email in any case [R115]', async () => {
		const customers = adminCustomersRepository(t.db, admin)
		const all = await customers.page({})
		expect(all.customers.map((c) => c.email).sort()).toEqual(['ada@example.com', 'grace@example.com'])
		expect(all.customers.find((c) => c.email === 'ada@example.com')).toMatchObject({ name: 'Ada Lovelace', orders: 3, spentMinor: 3000 })
		expect(all.customers.find((c) => c.email === 'grace@example.com')).toMatchObject({ orders: 0, spentMinor: 0 })
		for (const query of ['ada', 'LOVELACE', 'Ada@Example'])
			expect(
				(await customers.page({ query })).customers.map((c) => c.email),
				query,
			).toEqual(['ada@example.com'])
		expect(JSON.stringify(all)).not.toMatch(/password|twoFactor|secret|session/i)
	})

	it('searches the start of each word of a name or email through the index: not the middle of a word, nor an admin [R115]', async () => {
		const customers = adminCustomersRepository(t.db, admin)
		expect(await customers.page({ query: 'love ada' })).toMatchObject({ total: 1, customers: [{ email: 'ada@example.com' }] })
		expect(await customers.page({ query: 'example.com' })).toMatchObject({ total: 2 })
		for (const query of ['velace', 'owner', 'elsewhere']) expect(await customers.page({ query }), query).toMatchObject({ total: 0, customers: [] })
		// A question with no word in it lists everyone, as no question does.
		expect((await customers.page({ query: '@ %' })).total).toBe(2)
		const renamed = (await signUpCustomer(t.auth, 'hopper@example.com')).userId
		await t.db.user.update({ where: { id: renamed }, data: { name: 'Grace Brewster', email: 'admiral@example.com' } })
		expect((await customers.page({ query: 'admiral' })).customers.map((c) => c.name)).toEqual(['Grace Brewster'])
		expect((await customers.page({ query: 'hopper' })).total).toBe(0)
		await t.db.user.delete({ where: { id: renamed } })
		expect((await customers.page({ query: 'admiral' })).total).toBe(0)
	})

	it('counts a common word to the cap and lists the first matches only, newest first, whatever the store holds [R115]', async () => {
		// A Store of its own, with more customers of one word than the search counts.
		const { id: storeId } = await anotherStore(t.db)
		const many = ADMIN_SEARCH_CAP + 3
		const created = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000)
		await t.db.user.createMany({
			data: Array.from({ length: many }, (_, i) => ({ id: randomUUID(), storeId, name: `Common Name${i}`, email: `c${i}@example.com`, createdAt: created(i) })),
		})
		await t.db.user.create({ data: { id: randomUUID(), storeId, name: 'Rare Common', email: 'rare@example.com', createdAt: created(many) } })
		const customers = adminCustomersRepository(t.db, { ...admin, storeId })
		const first = await customers.page({ query: 'common' })
		expect(first).toMatchObject({ total: ADMIN_SEARCH_CAP, more: true, pages: ADMIN_SEARCH_CAP / CUSTOMERS_PAGE_SIZE })
		expect(first.customers.map((c) => c.name).slice(0, 2)).toEqual(['Rare Common', `Common Name${many - 1}`])
		expect(first.customers[0]).toMatchObject({ email: 'rare@example.com', createdAt: created(many), orders: 0, spentMinor: 0 })
		// The last page within the cap is full; one past it is empty and reads no account.
		const last = await customers.page({ query: 'common', page: ADMIN_SEARCH_CAP / CUSTOMERS_PAGE_SIZE })
		expect(last.customers).toHaveLength(CUSTOMERS_PAGE_SIZE)
		expect(last.customers.at(-1)?.name).toBe(`Common Name${many + 1 - ADMIN_SEARCH_CAP}`)
		expect(await customers.page({ query: 'common', page: ADMIN_SEARCH_CAP / CUSTOMERS_PAGE_SIZE + 1 })).toMatchObject({ customers: [], more: true })
		// Under the cap the count is exact, and the list without a question counts every customer.
		expect(await customers.page({ query: 'rare' })).toMatchObject({ total: 1, more: false, customers: [{ email: 'rare@example.com' }] })
		expect(await customers.page({ query: 'name1' })).toMatchObject({ total: 114, more: false })
		expect(await customers.page({})).toMatchObject({ total: many + 1, more: false })
	})

	it('keeps each customer’s Orders and spending with every Order write, as a sum over their Orders gives [R115] [R139]', async () => {
		const { id: storeId } = await anotherStore(t.db)
		const { id: connectionId } = await t.db.connection.create({
			data: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		const people = await Promise.all(
			['Kept One', 'Kept Two', 'Kept Three'].map((name, i) =>
				t.db.user.create({ data: { id: randomUUID(), storeId, name, email: `kept${i}@example.com` }, select: { id: true } }),
			),
		)
		const [one, two, three] = people.map((p) => p.id) as [string, string, string]
		let number = 9000
		const order = (userId: string | null, capturedMinor: number, refundedMinor = 0) =>
			t.db.order.create({
				data: orderRow({
					storeId,
					connectionId,
					userId,
					number: ++number,
					email: 'k@example.com',
					name: 'K',
					totalMinor: 5000,
					capturedMinor,
					refundedMinor,
					status: capturedMinor > 0 ? 'paid' : 'awaiting_payment',
				}),
				select: { number: true },
			})
		const a = await order(one, 5000)
		await order(one, 0)
		const b = await order(two, 3000, 1000)
		const c = await order(two, 2000)
		await order(three, 4000)
		await order(null, 9999)
		// After the fact: a refund, an Order moved to another customer, one made a guest's, one deleted, a capture.
		const at = (n: { number: number }) => ({ storeId_number: { storeId, number: n.number } })
		await t.db.order.update({ where: at(a), data: { refundedMinor: 1500, status: 'partially_refunded' } })
		await t.db.order.update({ where: at(c), data: { userId: one } })
		await t.db.order.update({ where: at(b), data: { userId: null } })
		await t.db.order.updateMany({ where: { storeId, userId: one, capturedMinor: 0 }, data: { capturedMinor: 5000, status: 'paid' } })
		const gone = await order(three, 700)
		await t.db.order.delete({ where: at(gone) })

		const direct = async () => {
			const groups = await t.db.order.groupBy({
				by: ['userId'],
				where: { storeId, userId: { not: null } },
				_count: { _all: true },
				_sum: { capturedMinor: true, refundedMinor: true },
			})
			return Object.fromEntries(groups.map((g) => [g.userId, { orders: g._count._all, spentMinor: (g._sum.capturedMinor ?? 0) - (g._sum.refundedMinor ?? 0) }]))
		}
		const shown = async () => {
			const { customers } = await adminCustomersRepository(t.db, { ...admin, storeId }).page({})
			return Object.fromEntries(customers.filter((c) => c.orders > 0).map((c) => [c.id, { orders: c.orders, spentMinor: c.spentMinor }]))
		}
		expect(await direct()).toEqual({ [one]: { orders: 3, spentMinor: 5000 - 1500 + 5000 + 2000 }, [three]: { orders: 1, spentMinor: 4000 } })
		expect(await shown()).toEqual(await direct())
		expect((await adminCustomersRepository(t.db, { ...admin, storeId }).get(one)).customer).toMatchObject({ orders: 3, spentMinor: 10_500 })
		// Deleting an account makes its Orders a guest's and takes its row away.
		await t.db.user.delete({ where: { id: one } })
		expect(await t.db.customerTotal.count({ where: { storeId, userId: one } })).toBe(0)
		expect(await shown()).toEqual(await direct())
		expect(await t.db.customerTotal.findMany({ where: { storeId }, select: { userId: true, orders: true } })).toEqual(
			expect.arrayContaining([{ userId: three, orders: 1 }]),
		)
	})

	it("shows one customer with their Orders, and not an admin or another Store's account [R115]", async () => {
		const customers = adminCustomersRepository(t.db, admin)
		const { customer, orders } = await customers.get(ada)
		expect(customer).toMatchObject({ email: 'ada@example.com', orders: 3, spentMinor: 3000 })
		expect(orders.map((o) => o.number).sort()).toEqual([2001, 2002, 2003])
		await expect(customers.get(admin.userId)).rejects.toMatchObject({ status: 404 })
		const elsewhere = await t.db.user.findFirstOrThrow({ where: { storeId: otherStoreId }, select: { id: true } })
		await expect(customers.get(elsewhere.id)).rejects.toMatchObject({ status: 404 })
		await expect(adminCustomersRepository(t.db, { ...admin, storeId: otherStoreId }).get(ada)).rejects.toMatchObject({ status: 404 })
	})

	it('lists guest buyers by email with their Orders and what they spent, searched, and only this Store’s [R129]', async () => {
		const connection = await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId }, select: { id: true } })
		const guestOrder = (storeId: string, connectionId: string, number: number, email: string, captured: number, refunded: number, at: string) =>
			t.db.order.create({
				data: orderRow({
					storeId,
					connectionId,
					number,
					email,
					name: 'Guest',
					totalMinor: captured,
					capturedMinor: captured,
					refundedMinor: refunded,
					createdAt: new Date(at),
				}),
			})
		await guestOrder(t.storeId, connection.id, 3001, 'lin@example.com', 1000, 0, '2026-03-01T10:00:00Z')
		await guestOrder(t.storeId, connection.id, 3002, 'lin@example.com', 2500, 500, '2026-03-05T10:00:00Z')
		await guestOrder(t.storeId, connection.id, 3003, 'max_50%@example.com', 700, 0, '2026-03-02T10:00:00Z')
		const elsewhere = await t.db.connection.create({
			data: { storeId: otherStoreId, handle: 'offline', provider: 'offline', displayName: 'B' },
			select: { id: true },
		})
		await guestOrder(otherStoreId, elsewhere.id, 3004, 'lin@example.com', 9999, 0, '2026-03-09T10:00:00Z')

		const customers = adminCustomersRepository(t.db, admin)
		const all = await customers.guests({})
		// Ada's Orders were placed with her account: she is not a guest buyer.
		expect(all.guests.map((g) => [g.email, g.orders, g.spentMinor])).toEqual([
			['lin@example.com', 2, 3000],
			['max_50%@example.com', 1, 700],
		])
		expect(all).toMatchObject({ total: 2, pages: 1 })
		// Search by part of the email; a wildcard in the search is only a character.
		expect((await customers.guests({ query: 'LIN@' })).guests.map((g) => g.email)).toEqual(['lin@example.com'])
		expect(await customers.guests({ query: '50%' })).toMatchObject({ total: 1, guests: [{ email: 'max_50%@example.com' }] })
		expect(await customers.guests({ query: 'x%y' })).toMatchObject({ total: 0, guests: [] })

		const lin = await customers.guest('lin@example.com')
		expect(lin.guest).toEqual({ email: 'lin@example.com', orders: 2, spentMinor: 3000 })
		expect(lin.orders.map((o) => o.number)).toEqual([3002, 3001])
		// An account's email, an unknown one, and another Store's guest are not found.
		for (const email of ['ada@example.com', 'nobody@example.com']) await expect(customers.guest(email)).rejects.toMatchObject({ status: 404 })
		expect((await adminCustomersRepository(t.db, { ...admin, storeId: otherStoreId }).guest('lin@example.com')).guest.spentMinor).toBe(9999)
	})
	it('keeps each guest buyer with every Order write, as grouping their Orders gives, and counts them [R129]', async () => {
		const { id: storeId } = await anotherStore(t.db)
		const { id: connectionId } = await t.db.connection.create({
			data: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		const account = await t.db.user.create({ data: { id: randomUUID(), storeId, name: 'Claimer', email: 'claimer@example.com' }, select: { id: true } })
		let number = 5000
		const place = (email: string, captured: number, at: string) =>
			t.db.order.create({
				data: orderRow({
					storeId,
					connectionId,
					number: ++number,
					email,
					name: 'Guest',
					totalMinor: captured,
					capturedMinor: captured,
					createdAt: new Date(at),
				}),
				select: { id: true },
			})
		const grouped = async () => {
			const groups = await t.db.order.groupBy({
				by: ['email'],
				where: { storeId, userId: null },
				_count: { _all: true },
				_sum: { capturedMinor: true, refundedMinor: true },
				_max: { createdAt: true },
			})
			return groups
				.map((g) => ({
					email: g.email,
					orders: g._count._all,
					spentMinor: (g._sum.capturedMinor ?? 0) - (g._sum.refundedMinor ?? 0),
					lastOrderAt: g._max.createdAt,
				}))
				.sort((a, b) => b.lastOrderAt!.getTime() - a.lastOrderAt!.getTime() || (a.email < b.email ? 1 : -1))
		}
		const guests = adminCustomersRepository(t.db, { ...admin, storeId })
		const expectKept = async () => {
			const expected = await grouped()
			const listed = await guests.guests({})
			expect(listed.guests).toEqual(expected)
			expect(listed.total).toBe(expected.length)
		}
		const first = await place('one@example.com', 1000, '2026-04-01T10:00:00Z')
		const latest = await place('one@example.com', 2000, '2026-04-03T10:00:00Z')
		await place('two@example.com', 500, '2026-04-02T10:00:00Z')
		const claimed = await place('claimer@example.com', 700, '2026-04-04T10:00:00Z')
		await expectKept()
		// A refund, a payment, an email corrected, a guest Order claimed by an account, a deletion.
		await t.db.order.update({ where: { id: first.id }, data: { refundedMinor: 400 } })
		await t.db.order.update({ where: { id: latest.id }, data: { capturedMinor: 2500 } })
		await expectKept()
		await t.db.order.update({ where: { id: latest.id }, data: { email: 'two@example.com' } })
		await expectKept()
		expect((await guests.guests({})).guests.map((g) => [g.email, g.orders, g.lastOrderAt?.toISOString()])).toEqual([
			['claimer@example.com', 1, '2026-04-04T10:00:00.000Z'],
			['two@example.com', 2, '2026-04-03T10:00:00.000Z'],
			['one@example.com', 1, '2026-04-01T10:00:00.000Z'],
		])
		await t.db.order.update({ where: { id: claimed.id }, data: { userId: account.id } })
		await t.db.order.delete({ where: { id: first.id } })
		await expectKept()
		expect(await guests.guests({})).toMatchObject({ total: 1, guests: [{ email: 'two@example.com', orders: 2, spentMinor: 3000 }] })
		// The account's Order back to a guest Order: its buyer returns.
		await t.db.order.update({ where: { id: claimed.id }, data: { userId: null } })
		await expectKept()
		expect(await guests.guests({})).toMatchObject({ total: 2 })
	})

	it('counts a guest search up to 1,000 buyers and says there are more [R129]', async () => {
		const { id: storeId } = await anotherStore(t.db)
		const { id: connectionId } = await t.db.connection.create({
			data: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		const many = ADMIN_SEARCH_CAP + 3
		await t.db.order.createMany({
			data: Array.from({ length: many }, (_, i) =>
				orderRow({
					storeId,
					connectionId,
					number: 1001 + i,
					email: `buyer${i}@many.example`,
					name: 'Guest',
					totalMinor: 100,
					createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
				}),
			),
		})
		const guests = adminCustomersRepository(t.db, { ...admin, storeId })
		expect(await guests.guests({})).toMatchObject({ total: many, more: false })
		const searched = await guests.guests({ query: 'many.example' })
		expect(searched).toMatchObject({ total: ADMIN_SEARCH_CAP, more: true, pages: ADMIN_SEARCH_CAP / CUSTOMERS_PAGE_SIZE })
		expect(searched.guests[0]?.email).toBe(`buyer${many - 1}@many.example`)
		expect(await guests.guests({ query: 'many.example', page: ADMIN_SEARCH_CAP / CUSTOMERS_PAGE_SIZE + 1 })).toMatchObject({ guests: [], more: true })
		expect(await guests.guests({ query: 'buyer100' })).toMatchObject({ total: 4, more: false })
	})
})
