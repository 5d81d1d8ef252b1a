/**
 * Discount codes on both engines: Store Admin keeps them (checked, audited, in its own Store)
 * [R135]; checkout applies them on the server in minor units before tax and keeps the code and
 * amount on the Order [R132]; a refused code says why and leaves the cart as it was [R133]; the
 * usage limit holds under contention, a cancelled unpaid Order gives its use back, and
 * once-per-customer holds by account and by email [R134]. Each test has a Store of its own.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, asCustomer, createProduct, newGuest, offline, stockOf } from '../../tests/helpers/commerce'
import {
	PROVIDERS,
	type TestDatabase,
	anotherStore,
	openPrivateTestDatabase,
	openTestDatabase,
	signUpAdmin,
	signUpCustomer,
} from '../../tests/helpers/databases'
import { caught, discountInput } from '../../tests/helpers/discounts'
import { cartRepository } from '../cart/cart.server'
import type { AdminViewer, Viewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import { adminOrdersRepository } from '../orders/admin-orders.server'
import { placeOrder } from '../orders/checkout.server'
import { chargeLines } from '../rules/totals'
import { type DiscountInput, adminDiscountsRepository } from './admin-discounts.server'
import { REFUSAL_MESSAGES } from './pricing'

describe.each(PROVIDERS)('discount codes on %s', (provider) => {
	let t: TestDatabase
	let adminUser: AdminViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		adminUser = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.db.$disconnect())

	/** A Store of its own (USD, offline payment), its admin, and a product at `priceMinor`. */
	async function shop({ pricesIncludeTax = false, priceMinor = 2500, stock = 50 } = {}) {
		const { id: storeId } = await t.db.store.create({ data: { handle: `disc-${randomUUID()}`, name: 'Discounts', pricesIncludeTax }, select: { id: true } })
		await offline(t.db, storeId)
		const admin: AdminViewer = { ...adminUser, storeId }
		const product = await createProduct(t.db, storeId, { priceMinor, stock })
		return { storeId, admin, product, discounts: adminDiscountsRepository(t.db, admin) }
	}

	async function checkout(viewer: Viewer, productId: string, quantity: number, discountCode?: string, details = DETAILS) {
		await cartRepository(t.db, viewer).add({ productId, quantity })
		return placeOrder({ db: t.db, viewer, details, connectionHandle: 'offline', discountCode, idempotencyKey: randomUUID() })
	}

	const stored = (id: string) =>
		t.db.order.findUniqueOrThrow({
			where: { id },
			select: { subtotalMinor: true, shippingMinor: true, discountCode: true, discountKind: true, discountMinor: true, taxMinor: true, totalMinor: true },
		})
	const usedCount = (id: string) => t.db.discountCode.findUniqueOrThrow({ where: { id }, select: { usedCount: true } }).then((row) => row.usedCount)

	it('creates, lists, edits and switches off codes in the admin’s Store only, each change audited [R135]', async () => {
		const { storeId, admin, discounts } = await shop()
		const created = await discounts.create(discountInput({ code: 'spring-10' }))
		expect(created.code).toBe('SPRING-10')
		// Case does not make a second code.
		expect(await caught(discounts.create(discountInput({ code: 'Spring-10' })))).toMatchObject({ status: 409, field: 'code' })
		await discounts.update(created.id, discountInput({ code: 'spring-15', value: 1500, usageLimit: 5 }))
		await discounts.setActive(created.id, false)
		expect(await discounts.list()).toEqual([expect.objectContaining({ code: 'SPRING-15', value: 1500, usageLimit: 5, active: false })])
		const audit = await t.db.auditEntry.findMany({
			where: { storeId, targetId: created.id },
			orderBy: { createdAt: 'asc' },
			select: { action: true, actorId: true },
		})
		expect(audit.map((row) => row.action)).toEqual(['discount.create', 'discount.update', 'discount.deactivate'])
		expect(audit.every((row) => row.actorId === admin.userId)).toBe(true)

		// Another Store's admin finds nothing and changes nothing.
		const other = adminDiscountsRepository(t.db, { ...admin, storeId: (await anotherStore(t.db)).id })
		expect(await other.byId(created.id)).toBeNull()
		expect(await caught(other.setActive(created.id, true))).toMatchObject({ status: 404 })
		expect(await caught(other.update(created.id, discountInput()))).toMatchObject({ status: 404 })
		expect((await discounts.byId(created.id))?.active).toBe(false)
	})

	it('refuses values out of range, with nothing written [R135]', async () => {
		const { storeId, discounts } = await shop()
		const bad: Array<[Partial<DiscountInput>, string]> = [
			[{ code: 'no' }, 'code'],
			[{ code: 'with space' }, 'code'],
			[{ code: `${'X'.repeat(33)}` }, 'code'],
			[{ kind: 'bogus' as DiscountInput['kind'] }, 'kind'],
			[{ kind: 'percentage', value: 0 }, 'value'],
			[{ kind: 'percentage', value: 10_001 }, 'value'],
			[{ kind: 'fixed', value: -5 }, 'value'],
			[{ kind: 'fixed', value: 1.5 }, 'value'],
			[{ kind: 'fixed', value: 100_000_000 }, 'value'],
			[{ minimumSubtotalMinor: -1 }, 'minimumSubtotal'],
			[{ usageLimit: 0 }, 'usageLimit'],
			[{ usageLimit: 2_000_000 }, 'usageLimit'],
			[{ startsAt: new Date('invalid') }, 'startsAt'],
			[{ startsAt: new Date('2027-01-02T00:00:00Z'), endsAt: new Date('2027-01-01T00:00:00Z') }, 'endsAt'],
		]
		for (const [input, field] of bad) {
			const error = await caught(discounts.create(discountInput(input)))
			expect(error, JSON.stringify(input)).toBeInstanceOf(DomainError)
			expect(error).toMatchObject({ status: 400, field })
		}
		expect(await t.db.discountCode.count({ where: { storeId } })).toBe(0)
		expect(await t.db.auditEntry.count({ where: { storeId } })).toBe(0)
	})

	it('takes a percentage or a fixed amount off the goods before tax, on the server, and keeps code and amount on the Order [R132]', async () => {
		const { storeId, product, discounts } = await shop({ priceMinor: 1999 })
		await t.db.taxRate.create({ data: { storeId, country: 'US', rateBasisPoints: 1000 } })
		await discounts.create(discountInput({ code: 'TENOFF', value: 1000 }))
		await discounts.create(discountInput({ code: 'FIVE', kind: 'fixed', value: 500 }))

		// 3 × 19.99 = 59.97; 10% is 6.00 (5.997 rounded); tax 10% of 53.97 = 5.40.
		const percent = await checkout(newGuest(storeId), product.id, 3, ' tenoff ')
		expect(await stored(percent.order.id)).toEqual({
			subtotalMinor: 5997,
			shippingMinor: 0,
			discountCode: 'TENOFF',
			discountKind: 'percentage',
			discountMinor: 600,
			taxMinor: 540,
			totalMinor: 5937,
		})
		// A fixed amount larger than the goods takes off only what they cost: never below zero.
		const { product: cheap } = { product: await createProduct(t.db, storeId, { priceMinor: 300 }) }
		const fixed = await checkout(newGuest(storeId), cheap.id, 1, 'five')
		expect(await stored(fixed.order.id)).toMatchObject({ discountMinor: 300, taxMinor: 0, totalMinor: 0 })
	})

	it('takes the discount out of tax-inclusive prices, and waives shipping for a free-shipping code; the provider’s lines add up [R132]', async () => {
		const { storeId, product, discounts } = await shop({ pricesIncludeTax: true, priceMinor: 11_900 })
		await t.db.taxRate.create({ data: { storeId, country: 'DE', rateBasisPoints: 1900 } })
		const zone = await t.db.shippingZone.create({ data: { storeId, name: 'Europe', countries: 'DE' }, select: { id: true } })
		const rate = await t.db.shippingRate.create({ data: { storeId, zoneId: zone.id, name: 'Standard', priceMinor: 595 }, select: { id: true } })
		await discounts.create(discountInput({ code: 'SHIPFREE', kind: 'free_shipping', value: 0 }))
		await discounts.create(discountInput({ code: 'TENNER', kind: 'fixed', value: 1000 }))
		const de = { ...DETAILS, country: 'DE' }

		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const free = await placeOrder({
			db: t.db,
			viewer: guest,
			details: de,
			connectionHandle: 'offline',
			shippingRateId: rate.id,
			discountCode: 'shipfree',
			idempotencyKey: randomUUID(),
		})
		// 119.00 gross, shipping 5.95 waived: tax is the 19% inside 119.00.
		expect(await stored(free.order.id)).toMatchObject({ shippingMinor: 595, discountMinor: 595, taxMinor: 1900, totalMinor: 11_900 })
		expect(chargeLines(free.order).reduce((sum, line) => sum + line.unitPriceMinor * line.quantity, 0)).toBe(11_900)
		expect(chargeLines(free.order).some((line) => line.title.startsWith('Shipping'))).toBe(false)

		const other = newGuest(storeId)
		await cartRepository(t.db, other).add({ productId: product.id, quantity: 2 })
		const fixed = await placeOrder({
			db: t.db,
			viewer: other,
			details: de,
			connectionHandle: 'offline',
			shippingRateId: rate.id,
			discountCode: 'TENNER',
			idempotencyKey: randomUUID(),
		})
		// 238.00 − 10.00 + 5.95 = 233.95 gross; tax = 233.95 − 233.95 ÷ 1.19 = 37.35.
		expect(await stored(fixed.order.id)).toMatchObject({ discountMinor: 1000, taxMinor: 3735, totalMinor: 23_395 })
		const lines = chargeLines(fixed.order)
		expect(lines.reduce((sum, line) => sum + line.unitPriceMinor * line.quantity, 0)).toBe(23_395)
		expect(lines[0]).toEqual({ title: `2 × ${product.title}`, unitPriceMinor: 22_800, quantity: 1 })
	})

	it('refuses a code that does not apply with its reason, naming no other code, and leaves cart and stock as they were [R133]', async () => {
		const { storeId, product, discounts } = await shop({ priceMinor: 1000 })
		const past = new Date(Date.now() - 86_400_000)
		const future = new Date(Date.now() + 86_400_000)
		await discounts.create(discountInput({ code: 'OLD', endsAt: past, startsAt: new Date(past.getTime() - 1000) }))
		await discounts.create(discountInput({ code: 'SOON', startsAt: future }))
		await discounts.create(discountInput({ code: 'OFF', active: false }))
		await discounts.create(discountInput({ code: 'BIGCART', minimumSubtotalMinor: 5000 }))
		const gone = await discounts.create(discountInput({ code: 'GONE', usageLimit: 1 }))
		await t.db.discountCode.update({ where: { id: gone.id }, data: { usedCount: 1 } })

		const cases: Array<[string, string]> = [
			['NOSUCH', REFUSAL_MESSAGES.unknown],
			['x', REFUSAL_MESSAGES.unknown],
			['OFF', REFUSAL_MESSAGES.unknown],
			['SOON', REFUSAL_MESSAGES.unknown],
			['OLD', REFUSAL_MESSAGES.expired],
			['BIGCART', REFUSAL_MESSAGES.below_minimum],
			['GONE', REFUSAL_MESSAGES.used_up],
		]
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
		for (const [code, message] of cases) {
			const error = await caught(
				placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', discountCode: code, idempotencyKey: randomUUID() }),
			)
			expect(error, code).toMatchObject({ status: 409, field: 'discountCode', message })
			for (const other of ['OLD', 'SOON', 'OFF', 'BIGCART', 'GONE']) expect((error as Error).message).not.toContain(other)
		}
		expect((await cartRepository(t.db, guest).summary()).lines.map((line) => line.quantity)).toEqual([2])
		expect(await stockOf(t.db, product.variantId)).toBe(50)
		expect(await t.db.order.count({ where: { storeId } })).toBe(0)
		expect(await usedCount(gone.id)).toBe(1)
	})

	it('holds once-per-customer by account and by email (any case), and a cancelled unpaid Order gives its use back [R134]', async () => {
		const { storeId, admin, product, discounts } = await shop({ priceMinor: 1000 })
		const once = await discounts.create(discountInput({ code: 'WELCOME', oncePerCustomer: true, usageLimit: 3 }))
		const customer = await signUpCustomer(t.auth)
		const account = asCustomer(storeId, customer.userId, customer.email)

		const first = await checkout(account, product.id, 1, 'WELCOME', { ...DETAILS, email: 'first@example.com' })
		expect(first.order.discountMinor).toBe(100)
		// The same account with another email, and a guest with the first email in capitals: both refused.
		for (const [viewer, email] of [
			[account, 'second@example.com'],
			[newGuest(storeId), 'FIRST@Example.com'],
		] as const) {
			const error = await caught(checkout(viewer, product.id, 1, 'welcome', { ...DETAILS, email }))
			expect(error).toMatchObject({ status: 409, field: 'discountCode', message: REFUSAL_MESSAGES.already_used })
		}
		expect(await usedCount(once.id)).toBe(1)

		// Cancelled while unpaid: the use comes back, and the customer may use the code again.
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(first.order.number, 'cancel')
		expect(await usedCount(once.id)).toBe(0)
		expect(await t.db.discountRedemption.count({ where: { discountId: once.id } })).toBe(0)
		const again = await checkout(account, product.id, 1, 'WELCOME', { ...DETAILS, email: 'first@example.com' })
		// Two mugs: the refused attempt's stayed in the account's cart.
		expect(again.order).toMatchObject({ discountCode: 'WELCOME', discountMinor: 200, totalMinor: 1800 })

		// Paid, then cancelled: the use stays counted.
		await orders.act(again.order.number, 'mark_paid')
		await orders.act(again.order.number, 'cancel')
		expect(await usedCount(once.id)).toBe(1)
	})

	it('captures the discounted total when paid, and refunds never more than that [R132]', async () => {
		const { storeId, admin, product, discounts } = await shop({ priceMinor: 4000 })
		await discounts.create(discountInput({ code: 'QUARTER', value: 2500 }))
		const { order } = await checkout(newGuest(storeId), product.id, 1, 'QUARTER')
		expect(order.totalMinor).toBe(3000)
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(order.number, 'mark_paid')
		expect(await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { capturedMinor: true } })).toEqual({ capturedMinor: 3000 })
		expect(await caught(orders.act(order.number, 'refund', { refundMinor: 3001, refundedBefore: 0 }))).toMatchObject({
			status: 400,
			message: expect.stringContaining('$30.00 left to refund'),
		})
		await orders.act(order.number, 'refund', { refundMinor: 3000, refundedBefore: 0 })
		expect(await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { refundedMinor: true, status: true } })).toEqual({
			refundedMinor: 3000,
			status: 'refunded',
		})
	})

	it('lets one of two checkouts with the same email at the same moment use a once-per-customer code [R134]', async () => {
		const { storeId, product, discounts } = await shop({ priceMinor: 1000 })
		const once = await discounts.create(discountInput({ code: 'ONCE', oncePerCustomer: true }))
		const guests = [newGuest(storeId), newGuest(storeId)]
		for (const guest of guests) await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const email = `twice-${randomUUID().slice(0, 8)}@example.com`
		const results = await Promise.allSettled(
			guests.map((viewer) =>
				placeOrder({ db: t.db, viewer, details: { ...DETAILS, email }, connectionHandle: 'offline', discountCode: 'once', idempotencyKey: randomUUID() }),
			),
		)
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		const refusedOne = results.find((result) => result.status === 'rejected')
		expect(refusedOne?.status === 'rejected' ? refusedOne.reason : null).toMatchObject({ status: 409, message: REFUSAL_MESSAGES.already_used })
		expect(await usedCount(once.id)).toBe(1)
	})
})

describe.each(PROVIDERS)('a usage limit under contention on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	beforeAll(async () => {
		// A database of its own: forty checkouts at once hold SQLite's one writer for a while.
		t = await openPrivateTestDatabase(provider)
		await offline(t.db, t.storeId)
	})
	afterAll(() => t?.close())

	it('gives a 10-use code to exactly 10 of 40 shoppers applying it at once; the others keep their carts [R134]', async () => {
		const admin = (await signUpAdmin(t)).viewer
		const code = await adminDiscountsRepository(t.db, admin).create(discountInput({ code: 'RUSH', usageLimit: 10 }))
		const product = await createProduct(t.db, t.storeId, { priceMinor: 2000, stock: 1000 })
		const shoppers = Array.from({ length: 40 }, () => newGuest(t.storeId))
		for (const shopper of shoppers) await cartRepository(t.db, shopper).add({ productId: product.id, quantity: 1 })

		const results = await Promise.allSettled(
			shoppers.map((viewer) =>
				placeOrder({ db: t.db, viewer, details: DETAILS, connectionHandle: 'offline', discountCode: 'rush', idempotencyKey: randomUUID() }),
			),
		)
		const placed = results.filter((result) => result.status === 'fulfilled')
		const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []))
		expect(placed).toHaveLength(10)
		expect(refused).toHaveLength(30)
		for (const error of refused) expect(error).toMatchObject({ status: 409, field: 'discountCode', message: REFUSAL_MESSAGES.used_up })
		expect(await t.db.order.count({ where: { storeId: t.storeId, discountCode: 'RUSH' } })).toBe(10)
		expect((await t.db.discountCode.findUniqueOrThrow({ where: { id: code.id }, select: { usedCount: true } })).usedCount).toBe(10)
		expect(await stockOf(t.db, product.variantId)).toBe(990)
		const carts = await Promise.all(shoppers.map((viewer) => cartRepository(t.db, viewer).summary()))
		expect(carts.filter((cart) => cart.lines.length === 1)).toHaveLength(30)
	})
})
