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

	it('keeps each day’s sales with every Order write, and sums a window from kept days and its two part-days exactly as from every Order [R114] [R139]', async () => {
		const { id: storeId } = await anotherStore(t.db)
		const viewer = { ...admin, storeId }
		const at = (iso: string) => new Date(iso)
		// Times on and around midnights and the windows' edges, paid and not.
		const times = [
			'2026-11-24T00:00:00.000Z',
			'2026-11-23T23:59:59.999Z',
			'2026-11-17T15:00:00.000Z',
			'2026-11-17T14:59:59.999Z',
			'2026-11-18T00:00:00.000Z',
			'2026-10-25T15:00:00.000Z',
			'2026-10-25T14:00:00.000Z',
			'2026-11-24T14:59:59.000Z',
			'2026-11-24T15:00:00.000Z',
			'2026-11-24T15:00:00.001Z',
			'2026-11-01T08:00:00.000Z',
		]
		const made = []
		for (const [i, time] of times.entries()) made.push(await order({ status: 'paid', totalMinor: 1000 + i, paidAt: at(time), storeId }))
		await order({ status: 'awaiting_payment', totalMinor: 777, storeId })
		// Writes after the fact: a refund, a payment moved to another day, a capture changed, an Order deleted, one paid late.
		await t.db.order.update({ where: { storeId_number: { storeId, number: made[2]!.number } }, data: { refundedMinor: 300, status: 'partially_refunded' } })
		await t.db.order.update({ where: { storeId_number: { storeId, number: made[10]!.number } }, data: { paidAt: at('2026-11-20T10:00:00.000Z') } })
		await t.db.order.update({ where: { storeId_number: { storeId, number: made[4]!.number } }, data: { capturedMinor: 50 } })
		await t.db.order.delete({ where: { storeId_number: { storeId, number: made[5]!.number } } })
		await t.db.order.updateMany({
			where: { storeId, status: 'awaiting_payment' },
			data: { status: 'paid', paidAt: at('2026-11-19T12:00:00.000Z'), capturedMinor: 777 },
		})

		// The kept rows are what a GROUP BY of every Order gives.
		const orders = await t.db.order.findMany({ where: { storeId, paidAt: { not: null } }, select: { paidAt: true, capturedMinor: true, refundedMinor: true } })
		const expected = new Map<string, { orders: number; capturedMinor: bigint; refundedMinor: bigint }>()
		for (const o of orders) {
			const day = o.paidAt!.toISOString().slice(0, 10)
			const kept = expected.get(day) ?? { orders: 0, capturedMinor: 0n, refundedMinor: 0n }
			expected.set(day, {
				orders: kept.orders + 1,
				capturedMinor: kept.capturedMinor + BigInt(o.capturedMinor),
				refundedMinor: kept.refundedMinor + BigInt(o.refundedMinor),
			})
		}
		const kept = await t.db.salesDay.findMany({
			where: { storeId, orders: { gt: 0 } },
			select: { day: true, orders: true, capturedMinor: true, refundedMinor: true },
		})
		expect(new Map(kept.map(({ day, ...sums }) => [day, sums]))).toEqual(expected)

		// Each window, at several moments, is the sum over every Order paid in it.
		for (const now of [NOW, at('2026-11-24T00:00:00.000Z'), at('2026-11-24T15:00:00.001Z'), at('2026-11-25T00:00:00.000Z')]) {
			const direct = await Promise.all(
				salesWindows(now).map(async (window) => {
					const paid = orders.filter((o) => o.paidAt! >= window.since && o.paidAt! <= now)
					return { key: window.key, orders: paid.length, netMinor: paid.reduce((sum, o) => sum + o.capturedMinor - o.refundedMinor, 0) }
				}),
			)
			const { sales } = await dashboardRepository(t.db, viewer).overview(now)
			expect(
				sales.map(({ key, orders: count, netMinor }) => ({ key, orders: count, netMinor })),
				now.toISOString(),
			).toEqual(direct)
		}
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
