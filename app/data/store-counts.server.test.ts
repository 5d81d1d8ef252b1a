import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline } from '../../tests/helpers/commerce'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin, signUpCustomer } from '../../tests/helpers/databases'
import { auditRepository } from '../audit/audit.server'
import { adminProductsRepository } from '../catalog/admin-products.server'
import { PRODUCT_STATUSES, catalogRepository, forgetCatalog } from '../catalog/catalog.server'
import { cartRepository } from '../cart/cart.server'
import { adminCustomersRepository } from '../customers/admin-customers.server'
import { adminOrdersRepository } from '../orders/admin-orders.server'
import { placeOrder } from '../orders/checkout.server'
import { dashboardRepository } from '../orders/dashboard.server'
import { ORDER_STATUSES } from '../rules/order-status'
import type { AdminViewer } from './viewer'
import { storeCounts } from './store-counts.server'

const NAMES = [
	...ORDER_STATUSES.map((status) => `orders:${status}` as const),
	...PRODUCT_STATUSES.map((status) => `products:${status}` as const),
	'audit',
	'customers',
] as const

describe.each(PROVIDERS)('the counts Store Admin reads, kept by every write, on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		await offline(t.db, t.storeId)
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.close())

	/** What counting every row says, the answer the kept counts must give. */
	async function counted(storeId = t.storeId): Promise<Record<(typeof NAMES)[number], number>> {
		const byStatus = await t.db.order.groupBy({ by: ['status'], where: { storeId }, _count: { _all: true } })
		const products = await t.db.product.groupBy({ by: ['status'], where: { storeId }, _count: { _all: true } })
		return {
			...(Object.fromEntries(PRODUCT_STATUSES.map((s) => [`products:${s}`, products.find((g) => g.status === s)?._count._all ?? 0])) as Record<
				`products:${(typeof PRODUCT_STATUSES)[number]}`,
				number
			>),
			...(Object.fromEntries(ORDER_STATUSES.map((s) => [`orders:${s}`, byStatus.find((g) => g.status === s)?._count._all ?? 0])) as Record<
				`orders:${(typeof ORDER_STATUSES)[number]}`,
				number
			>),
			audit: await t.db.auditEntry.count({ where: { storeId } }),
			customers: await t.db.user.count({ where: { storeId, role: 'user' } }),
		}
	}
	async function placed() {
		const guest = newGuest(t.storeId)
		const product = await createProduct(t.db, t.storeId, { priceMinor: 3000, stock: 50 })
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		return (await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })).order
	}

	it('follow checkouts, every transition, refunds, deletes, sign-ups, role and product status changes in the same transaction [R138]', async () => {
		const orders = adminOrdersRepository(t.db, admin)
		const [a, b, c, d] = [await placed(), await placed(), await placed(), await placed()]
		expect(await storeCounts(t.db, t.storeId, NAMES)).toEqual(await counted())
		expect((await storeCounts(t.db, t.storeId, ['orders:awaiting_payment']))['orders:awaiting_payment']).toBe(4)

		await orders.act(a.number, 'mark_paid')
		await orders.act(a.number, 'fulfil')
		await orders.act(b.number, 'cancel')
		await orders.act(c.number, 'mark_paid')
		const { capturedMinor } = await t.db.order.findUniqueOrThrow({ where: { id: c.id }, select: { capturedMinor: true } })
		await orders.act(c.number, 'refund', { refundMinor: capturedMinor, refundedBefore: 0 })
		// A status written again unchanged moves nothing.
		await t.db.order.update({ where: { id: a.id }, data: { status: 'fulfilled' }, select: { id: true } })
		await t.db.order.delete({ where: { id: d.id } })
		const customer = await signUpCustomer(t.auth)
		await t.db.user.update({ where: { id: customer.userId }, data: { role: 'admin' }, select: { id: true } })
		await t.db.user.update({ where: { id: customer.userId }, data: { role: 'user' }, select: { id: true } })
		await t.db.user.delete({ where: { id: (await signUpCustomer(t.auth)).userId } })
		const product = await t.db.product.findFirstOrThrow({ where: { storeId: t.storeId }, select: { id: true } })
		await t.db.product.update({ where: { id: product.id }, data: { status: 'archived' }, select: { id: true } })
		await t.db.product.delete({ where: { id: (await createProduct(t.db, t.storeId)).id } })

		const now = await counted()
		expect(now).toMatchObject({ 'orders:fulfilled': 1, 'orders:cancelled': 1, 'orders:refunded': 1, 'orders:awaiting_payment': 0 })
		expect(await storeCounts(t.db, t.storeId, NAMES)).toEqual(now)
	})

	it('a change that fails leaves its count as it was; another Store counts apart [R138]', async () => {
		const before = await storeCounts(t.db, t.storeId, NAMES)
		const order = await t.db.order.findFirstOrThrow({ where: { storeId: t.storeId }, select: { id: true } })
		await expect(
			t.db.$transaction(async (tx) => {
				await tx.order.update({ where: { id: order.id }, data: { status: 'cancelled' }, select: { id: true } })
				throw new Error('rolled back')
			}),
		).rejects.toThrow('rolled back')
		const other = await anotherStore(t.db)
		await t.db.user.create({ data: { id: randomUUID(), name: 'Other', email: `${randomUUID()}@example.com`, storeId: other.id }, select: { id: true } })
		expect(await storeCounts(t.db, t.storeId, NAMES)).toEqual(before)
		expect(await storeCounts(t.db, other.id, ['customers', 'audit'])).toEqual({ customers: 1, audit: 0 })
	})

	it('are what the overview, the Orders list, the customers list and the activity log show [R138]', async () => {
		const now = await counted()
		forgetCatalog()
		const overview = await dashboardRepository(t.db, admin).overview()
		expect([overview.awaitingPayment.count, overview.awaitingShipping.count]).toEqual([now['orders:awaiting_payment'], now['orders:paid']])
		const orders = adminOrdersRepository(t.db, admin)
		expect((await orders.page({})).total).toBe(ORDER_STATUSES.reduce((sum, s) => sum + now[`orders:${s}`], 0))
		expect((await orders.page({ status: 'fulfilled' })).total).toBe(now['orders:fulfilled'])
		expect((await adminCustomersRepository(t.db, admin).page({})).total).toBe(now.customers)
		expect((await auditRepository(t.db, admin).page()).total).toBe(now.audit)
		expect((await adminProductsRepository(t.db, admin).page({})).total).toBe(PRODUCT_STATUSES.reduce((sum, s) => sum + now[`products:${s}`], 0))
		expect((await catalogRepository(t.db, newGuest(t.storeId)).page()).total).toBe(now['products:active'])
	})
})
