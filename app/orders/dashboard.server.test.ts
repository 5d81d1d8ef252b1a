import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { adminProductsRepository } from '../catalog/admin-products.server'
import type { AdminViewer } from '../data/viewer'
import { dashboardRepository, salesWindows } from './dashboard.server'

const NOW = new Date('2026-11-24T15:00:00Z')
const daysAgo = (days: number, hour = 12) => new Date(Date.UTC(2026, 10, 24 - days, hour))

describe('sales windows', () => {
	it('start at midnight UTC today, and 7 and 30 days before now [R114]', () => {
		expect(salesWindows(NOW).map((w) => w.since.toISOString())).toEqual(['2026-11-24T00:00:00.000Z', '2026-11-17T15:00:00.000Z', '2026-10-25T15:00:00.000Z'])
	})
})

describe.each(PROVIDERS)("Store Admin's overview on %s", (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer
	let connectionId: string
	let otherStoreId: string
	let number = 5000

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
		connectionId = (
			await t.db.connection.create({ data: { storeId: t.storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' }, select: { id: true } })
		).id
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(() => t.close())

	const order = async (data: { status: string; totalMinor: number; paidAt?: Date; refundedMinor?: number; createdAt?: Date; storeId?: string }) => {
		const storeId = data.storeId ?? t.storeId
		const connection =
			storeId === t.storeId
				? connectionId
				: (
						await t.db.connection.upsert({
							where: { storeId_handle: { storeId, handle: 'offline' } },
							create: { storeId, handle: 'offline', provider: 'offline', displayName: 'B' },
							update: {},
							select: { id: true },
						})
					).id
		return t.db.order.create({
			data: {
				storeId,
				number: ++number,
				tokenHash: randomUUID(),
				email: 'buyer@example.com',
				name: 'Buyer',
				addressLine1: '1 Street',
				city: 'Town',
				postalCode: '1',
				country: 'US',
				currency: 'USD',
				subtotalMinor: data.totalMinor,
				totalMinor: data.totalMinor,
				capturedMinor: data.paidAt ? data.totalMinor : 0,
				refundedMinor: data.refundedMinor ?? 0,
				status: data.status,
				paidAt: data.paidAt ?? null,
				createdAt: data.createdAt ?? daysAgo(1),
				connectionId: connection,
				idempotencyKey: randomUUID(),
			},
			select: { number: true },
		})
	}

	it('sums what was paid less what was refunded per window, counts and lists what waits, for this Store only [R114]', async () => {
		await order({ status: 'paid', totalMinor: 1000, paidAt: new Date('2026-11-24T09:00:00Z') })
		await order({ status: 'fulfilled', totalMinor: 2000, paidAt: daysAgo(3), createdAt: daysAgo(4) })
		await order({ status: 'refunded', totalMinor: 500, paidAt: daysAgo(5), refundedMinor: 500 })
		await order({ status: 'paid', totalMinor: 700, paidAt: daysAgo(2), refundedMinor: 200, createdAt: daysAgo(3) })
		await order({ status: 'fulfilled', totalMinor: 4000, paidAt: daysAgo(20), createdAt: daysAgo(21) })
		await order({ status: 'fulfilled', totalMinor: 9000, paidAt: daysAgo(45), createdAt: daysAgo(46) })
		await order({ status: 'cancelled', totalMinor: 3000, createdAt: daysAgo(2) })
		const oldestWaiting = await order({ status: 'awaiting_payment', totalMinor: 1500, createdAt: daysAgo(6) })
		await order({ status: 'awaiting_payment', totalMinor: 1600, createdAt: daysAgo(1) })
		await order({ status: 'paid', totalMinor: 99_999, paidAt: new Date('2026-11-24T10:00:00Z'), storeId: otherStoreId })

		const overview = await dashboardRepository(t.db, admin).overview(NOW)
		expect(overview.sales.map(({ key, orders, netMinor }) => ({ key, orders, netMinor }))).toEqual([
			{ key: 'today', orders: 1, netMinor: 1000 },
			{ key: 'week', orders: 4, netMinor: 1000 + 2000 + 0 + 500 },
			{ key: 'month', orders: 5, netMinor: 1000 + 2000 + 0 + 500 + 4000 },
		])
		expect(overview.awaitingPayment.count).toBe(2)
		expect(overview.awaitingPayment.oldest[0]?.number).toBe(oldestWaiting.number)
		expect(overview.awaitingShipping.count).toBe(2)
		expect(overview.awaitingShipping.oldest.map((o) => o.totalMinor)).toEqual([700, 1000])
	})

	it('lists active products at or under the threshold, fewest first, never drafts or another Store’s [R114]', async () => {
		const add = (title: string, stock: number, status = 'active', storeId = t.storeId) =>
			t.db.product.create({
				data: { storeId, slug: `s-${randomUUID()}`, title, priceMinor: 100, status, variants: { create: { storeId, priceMinor: 100, stock } } },
			})
		await add('Plenty', 40)
		await add('Two left', 2)
		await add('Gone', 0)
		await add('Five', 5)
		await add('Draft low', 1, 'draft')
		await add('Theirs', 1, 'active', otherStoreId)
		const low = await adminProductsRepository(t.db, admin).lowStock(5)
		expect(low).toEqual({
			count: 3,
			products: [
				expect.objectContaining({ title: 'Gone', stock: 0 }),
				expect.objectContaining({ title: 'Two left' }),
				expect.objectContaining({ title: 'Five' }),
			],
		})
	})
})
