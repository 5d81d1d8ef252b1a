/**
 * A discount code at checkout before and after placing, on both engines: the preview the page
 * shows is the server's figure, priced by the same steps as placing, and refuses with the
 * same reasons without writing anything [R132, R133]; an Order the discount leaves with
 * nothing to pay is placed paid, never sent to a provider, and cannot be refunded [R140].
 * Each test has a Store of its own.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase } from '../../tests/helpers/databases'
import { caught, databaseWithAdmin, discountInput } from '../../tests/helpers/discounts'
import { cartRepository } from '../cart/cart.server'
import type { AdminViewer, Viewer } from '../data/viewer'
import { adminDiscountsRepository } from '../discounts/admin-discounts.server'
import { REFUSAL_MESSAGES } from '../discounts/pricing'
import { adminConnectionsRepository } from '../payments/admin-connections.server'
import { NO_PAYMENT_DUE } from '../rules/order-status'
import { orderTotals } from '../rules/totals'
import { adminOrdersRepository } from './admin-orders.server'
import { placeOrder, previewDiscount } from './checkout.server'
import { orderMailRenderer } from './mail.server'

describe.each(PROVIDERS)('discounts at checkout on %s', (provider) => {
	const opened = databaseWithAdmin(provider)
	let t: TestDatabase
	let adminUser: AdminViewer
	beforeAll(() => ({ t, adminUser } = opened()))

	/** A Store of its own with offline payment and a card Connection, and a product at `priceMinor`. */
	async function shop(priceMinor: number) {
		const { id: storeId } = await t.db.store.create({ data: { handle: `pay-${randomUUID()}`, name: 'Nothing to pay' }, select: { id: true } })
		await offline(t.db, storeId)
		const admin: AdminViewer = { ...adminUser, storeId }
		await adminConnectionsRepository(t.db, admin).create({
			provider: 'stripe',
			handle: 'card',
			displayName: 'Card',
			secretKey: 'sk_test_nothing_to_pay',
			webhookSecret: `whsec_${randomUUID().replaceAll('-', '')}`,
		})
		const product = await createProduct(t.db, storeId, { priceMinor, stock: 10 })
		return { storeId, admin, product, discounts: adminDiscountsRepository(t.db, admin) }
	}

	const place = (
		viewer: Viewer,
		discountCode: string,
		{ connectionHandle = 'offline', shippingRateId = undefined as string | undefined, details = DETAILS } = {},
	) => placeOrder({ db: t.db, viewer, details, connectionHandle, shippingRateId, discountCode, idempotencyKey: randomUUID() })

	it('previews the discount placing then takes, and the totals the summary works out from it are the Order’s [R132]', async () => {
		const { storeId, product, discounts } = await shop(1999)
		await t.db.taxRate.create({ data: { storeId, country: 'US', rateBasisPoints: 825 } })
		const zone = await t.db.shippingZone.create({ data: { storeId, name: 'Home', countries: 'US' }, select: { id: true } })
		const rate = await t.db.shippingRate.create({
			data: { storeId, zoneId: zone.id, name: 'Post', priceMinor: 495 },
			select: { id: true, name: true, priceMinor: true, freeOverMinor: true },
		})
		await discounts.create(discountInput({ code: 'THIRD', value: 3333 }))
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 3 })

		const preview = await previewDiscount({ db: t.db, viewer: guest, typed: ' third ', email: DETAILS.email })
		// 3 × 19.99 = 59.97; 33.33% of it is 19.99 (19.988 rounded).
		expect(preview).toEqual({ code: 'THIRD', kind: 'percentage', goodsMinor: 1999, freeShipping: false })
		const shown = orderTotals({ subtotalMinor: 5997, shipping: rate, taxRateBasisPoints: 825, pricesIncludeTax: false, discount: preview })
		const { order } = await place(guest, 'third', { shippingRateId: rate.id })
		expect(order).toMatchObject({
			discountMinor: shown.discountMinor,
			shippingMinor: shown.shippingMinor,
			taxMinor: shown.taxMinor,
			totalMinor: shown.totalMinor,
		})
		expect(order.totalMinor).toBe(5997 - 1999 + 495 + 371)
	})

	it('refuses a code in the preview with the reason placing gives, naming no other code and writing nothing [R133]', async () => {
		const { storeId, product, discounts } = await shop(1000)
		const past = new Date(Date.now() - 86_400_000)
		await discounts.create(discountInput({ code: 'ENDED', startsAt: new Date(past.getTime() - 1000), endsAt: past }))
		await discounts.create(discountInput({ code: 'LATER', startsAt: new Date(Date.now() + 86_400_000) }))
		await discounts.create(discountInput({ code: 'BIGGER', minimumSubtotalMinor: 5000 }))
		const gone = await discounts.create(discountInput({ code: 'SPENT', usageLimit: 1 }))
		await t.db.discountCode.update({ where: { id: gone.id }, data: { usedCount: 1 } })
		const once = await discounts.create(discountInput({ code: 'ONCE', oncePerCustomer: true }))
		await cartRepository(t.db, newGuest(storeId)).add({ productId: product.id, quantity: 1 })
		const first = newGuest(storeId)
		await cartRepository(t.db, first).add({ productId: product.id, quantity: 1 })
		await place(first, 'ONCE', { details: { ...DETAILS, email: 'once@example.com' } })

		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
		const cases: Array<[string, string, string]> = [
			['NOSUCH', DETAILS.email, REFUSAL_MESSAGES.unknown],
			['LATER', DETAILS.email, REFUSAL_MESSAGES.unknown],
			['ENDED', DETAILS.email, REFUSAL_MESSAGES.expired],
			['BIGGER', DETAILS.email, REFUSAL_MESSAGES.below_minimum],
			['SPENT', DETAILS.email, REFUSAL_MESSAGES.used_up],
			['once', 'ONCE@example.com', REFUSAL_MESSAGES.already_used],
		]
		for (const [typed, email, message] of cases) {
			const error = await caught(previewDiscount({ db: t.db, viewer: guest, typed, email }))
			expect(error, typed).toMatchObject({ status: 409, field: 'discountCode', message })
			for (const other of ['ENDED', 'LATER', 'BIGGER', 'SPENT', 'ONCE']) expect((error as Error).message).not.toContain(other)
		}
		const counts = await t.db.discountCode.findMany({ where: { storeId }, select: { code: true, usedCount: true }, orderBy: { code: 'asc' } })
		expect(counts.map((row) => `${row.code}:${row.usedCount}`).sort()).toEqual(['BIGGER:0', 'ENDED:0', 'LATER:0', 'ONCE:1', 'SPENT:1'])
		expect(await t.db.discountRedemption.count({ where: { discountId: once.id } })).toBe(1)
		expect((await cartRepository(t.db, guest).summary()).lines.map((line) => line.quantity)).toEqual([2])
		expect(await caught(previewDiscount({ db: t.db, viewer: newGuest(storeId), typed: 'ONCE', email: DETAILS.email }))).toMatchObject({ status: 409 })
	})

	it('places an Order with nothing to pay as paid, through any Connection, with the stock taken and its mail saying so [R140]', async () => {
		const { storeId, admin, product, discounts } = await shop(2500)
		await discounts.create(discountInput({ code: 'ALLOFF', value: 10_000 }))
		for (const connectionHandle of ['card', 'offline']) {
			const guest = newGuest(storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
			const { order } = await place(guest, 'alloff', { connectionHandle })
			// The checkout page sends only an Order awaiting payment through Stripe to the provider.
			expect(order).toMatchObject({ status: 'paid', totalMinor: 0, discountMinor: 5000, providerRef: null })
			const row = await t.db.order.findUniqueOrThrow({
				where: { id: order.id },
				select: { status: true, paidAt: true, capturedMinor: true, paymentNote: true, paymentIntentRef: true },
			})
			expect(row).toMatchObject({ status: 'paid', capturedMinor: 0, paymentNote: NO_PAYMENT_DUE, paymentIntentRef: null })
			expect(row.paidAt).toBeInstanceOf(Date)
			// The placed mail (queued as for any Order when mail is configured) says so; no "paid" mail claims a payment.
			const mail = await orderMailRenderer(t.db, 'order-placed')({ storeId, subjectId: order.id, toAddress: DETAILS.email })
			expect(mail?.text).toContain(NO_PAYMENT_DUE)
			const shown = await adminOrdersRepository(t.db, admin).byNumber(order.number)
			expect(shown.timeline.map((entry) => entry.what)).toContain(`Paid. ${NO_PAYMENT_DUE}`)
		}
		expect(await stockOf(t.db, product.variantId)).toBe(6)
	})

	it('refunds nothing of an Order that cost nothing, and still ships it [R140]', async () => {
		const { storeId, admin, product, discounts } = await shop(800)
		await discounts.create(discountInput({ code: 'FREEBIE', kind: 'fixed', value: 5000 }))
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const { order } = await place(guest, 'FREEBIE')
		const orders = adminOrdersRepository(t.db, admin)
		for (const refundMinor of [1, 800]) {
			expect(await caught(orders.act(order.number, 'refund', { refundMinor, refundedBefore: 0 })), String(refundMinor)).toMatchObject({
				status: 409,
				message: expect.stringContaining('Nothing captured'),
			})
		}
		expect(await caught(orders.act(order.number, 'mark_paid'))).toMatchObject({ status: 409 })
		await orders.act(order.number, 'fulfil')
		expect(await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, refundedMinor: true } })).toEqual({
			status: 'fulfilled',
			refundedMinor: 0,
		})
	})

	it('keeps an Order that still costs something waiting for its payment [R140]', async () => {
		const { storeId, product, discounts } = await shop(1000)
		await discounts.create(discountInput({ code: 'ALMOST', kind: 'fixed', value: 999 }))
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const { order } = await place(guest, 'ALMOST', { connectionHandle: 'card' })
		expect(order).toMatchObject({ status: 'awaiting_payment', totalMinor: 1 })
	})
})
