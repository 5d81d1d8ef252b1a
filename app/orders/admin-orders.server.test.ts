import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, singleVariantInput, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openPrivateTestDatabase, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { holdRowLock } from '../../tests/helpers/locks'
import { MAX_STOCK } from '../rules/limits'
import { cartRepository } from '../cart/cart.server'
import { adminProductsRepository } from '../catalog/admin-products.server'
import type { AdminViewer } from '../data/viewer'
import { enqueueMail } from '../email/outbox.server'
import { adminOrdersRepository } from './admin-orders.server'
import { orderMailRenderer } from './mail.server'
import { placeOrder } from './checkout.server'
import { StoreBusyError } from '../errors.server'
import { applyPaymentEvent, ordersRepository } from './orders.server'
import { unverifiedScope } from '../data/scope'

describe.each(PROVIDERS)('Store Admin products and orders on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let otherAdmin: AdminViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		admin = (await signUpAdmin(t)).viewer
		const other = await anotherStore(t.db)
		otherAdmin = { ...admin, storeId: other.id }
	})
	afterAll(() => t.db.$disconnect())

	const input = (slug = `s-${randomUUID().slice(0, 8)}`) =>
		singleVariantInput({
			title: 'Mug',
			slug,
			description: '',
			priceMinor: 1200,
			stock: 4,
			status: 'active' as const,
			imageKey: null,
		})
	const audits = (targetId: string) => t.db.auditEntry.findMany({ where: { targetId }, select: { action: true, actorId: true } })

	async function order(stockProduct?: { id: string }, quantity = 1) {
		const product = stockProduct ?? (await createProduct(t.db, t.storeId, { stock: 5 }))
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: quantity })
		const { order: placed } = await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		return { product, placed }
	}

	it('creates products with a slug unique per Store, audited', async () => {
		const products = adminProductsRepository(t.db, admin)
		const { id } = await products.create(input('same-slug'))
		await expect(products.create(input('same-slug'))).rejects.toMatchObject({ status: 409, field: 'slug' })
		// Another Store may use the same slug.
		await expect(adminProductsRepository(t.db, otherAdmin).create(input('same-slug'))).resolves.toBeTruthy()
		expect(await audits(id)).toEqual([{ action: 'product.create', actorId: admin.userId }])
	})

	it('never touches another Store’s product and refuses another Store’s image', async () => {
		const mine = await adminProductsRepository(t.db, admin).create(input())
		await expect(adminProductsRepository(t.db, otherAdmin).update(mine.id, { ...input(), title: 'Hijack' })).rejects.toMatchObject({ status: 404 })
		await expect(adminProductsRepository(t.db, otherAdmin).setStatus(mine.id, 'archived')).rejects.toMatchObject({ status: 404 })
		await expect(adminProductsRepository(t.db, otherAdmin).delete(mine.id)).rejects.toMatchObject({ status: 404 })
		const foreignKey = `stores/${otherAdmin.storeId}/uploads/${'a'.repeat(32)}.png`
		await t.db.uploadedObject.create({ data: { storeId: otherAdmin.storeId, key: foreignKey, contentType: 'image/png', byteSize: 1, sha256: 'x' } })
		await expect(adminProductsRepository(t.db, admin).update(mine.id, { ...input(), imageKey: foreignKey })).rejects.toMatchObject({ status: 400 })
		expect((await t.db.product.findUniqueOrThrow({ where: { id: mine.id } })).title).toBe('Mug')
	})

	it('deletes only a product no Order references', async () => {
		const { product } = await order()
		await expect(adminProductsRepository(t.db, admin).delete(product.id)).rejects.toMatchObject({ status: 409 })
		const spare = await adminProductsRepository(t.db, admin).create(input())
		await adminProductsRepository(t.db, admin).delete(spare.id)
		expect(await t.db.product.count({ where: { id: spare.id } })).toBe(0)
	})

	it('marks an offline order paid, ships it, and refuses invalid transitions', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await expect(orders.act(placed.number, 'fulfil')).rejects.toMatchObject({ status: 409 })
		await orders.act(placed.number, 'mark_paid')
		await expect(orders.act(placed.number, 'mark_paid')).rejects.toMatchObject({ status: 409 })
		await orders.act(placed.number, 'fulfil')
		await expect(orders.act(placed.number, 'cancel')).rejects.toMatchObject({ status: 409 })
		expect((await orders.byNumber(placed.number)).status).toBe('fulfilled')
		expect((await audits(placed.id)).map((a) => a.action)).toEqual(['order.mark_paid', 'order.fulfil'])
	})

	it('cancelling returns the stock, in the same transaction as its audit row', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 5 })
		const { placed } = await order(product, 3)
		expect(await stockOf(t.db, product.variantId)).toBe(2)
		await adminOrdersRepository(t.db, admin).act(placed.number, 'cancel')
		expect(await stockOf(t.db, product.variantId)).toBe(5)
		expect((await audits(placed.id)).map((a) => a.action)).toEqual(['order.cancel'])
	})

	it('cancelling never returns stock past the most a Product may hold', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 5 })
		const { placed } = await order(product, 3)
		await t.db.productVariant.update({ where: { id: product.variantId }, data: { stock: MAX_STOCK - 1 } })
		await adminOrdersRepository(t.db, admin).act(placed.number, 'cancel')
		expect(await stockOf(t.db, product.variantId)).toBe(MAX_STOCK)
	})

	it('a cancel that cannot take a stock row in time answers busy, changing nothing; the same cancel works once the row is free [R67]', async () => {
		// A database of its own: on SQLite the held lock stops every writer of the file.
		const own = await openPrivateTestDatabase(provider)
		try {
			await offline(own.db, own.storeId)
			const ownAdmin = (await signUpAdmin(own)).viewer
			const product = await createProduct(own.db, own.storeId, { stock: 5 })
			const guest = newGuest(own.storeId)
			await cartRepository(own.db, guest).add({ productId: product.id, quantity: 2 })
			const { order: placed } = await placeOrder({ db: own.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
			const release = await holdRowLock(own.url, product.id)
			try {
				await expect(adminOrdersRepository(own.db, ownAdmin).act(placed.number, 'cancel')).rejects.toBeInstanceOf(StoreBusyError)
			} finally {
				await release()
			}
			const state = async () => ({
				status: (await own.db.order.findUniqueOrThrow({ where: { id: placed.id } })).status,
				stock: await stockOf(own.db, product.variantId),
				audits: await own.db.auditEntry.count({ where: { targetId: placed.id } }),
			})
			expect(await state()).toEqual({ status: 'awaiting_payment', stock: 3, audits: 0 })
			await adminOrdersRepository(own.db, ownAdmin).act(placed.number, 'cancel')
			expect(await state()).toEqual({ status: 'cancelled', stock: 5, audits: 1 })
		} finally {
			await own.close()
		}
	}, 60_000)

	it('a change whose audit row fails leaves the order and stock as they were', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 5 })
		const { placed } = await order(product, 2)
		const ghost: AdminViewer = { ...admin, userId: 'no-such-user' }
		await expect(adminOrdersRepository(t.db, ghost).act(placed.number, 'cancel')).rejects.toThrow()
		expect((await t.db.order.findUniqueOrThrow({ where: { id: placed.id } })).status).toBe('awaiting_payment')
		expect(await stockOf(t.db, product.variantId)).toBe(3)
		expect(await audits(placed.id)).toEqual([])
	})

	it('records partial and full refunds; the order is refunded once the whole total is', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(placed.number, 'mark_paid')
		await orders.act(placed.number, 'refund', { refundMinor: 500 })
		expect((await orders.byNumber(placed.number)).status).toBe('paid')
		await expect(orders.act(placed.number, 'refund', { refundMinor: placed.totalMinor })).rejects.toMatchObject({ status: 400 })
		await orders.act(placed.number, 'refund')
		const after = await orders.byNumber(placed.number)
		expect(after).toMatchObject({ status: 'refunded', refundedMinor: placed.totalMinor })
	})

	it('records refunds up to what was captured, not the total: never more [R66]', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await expect(orders.act(placed.number, 'refund', { refundMinor: 100 })).rejects.toMatchObject({ status: 409 })
		// The shopper paid more than the total: what was captured can be refunded, and no more.
		expect(
			(
				await applyPaymentEvent(t.db, unverifiedScope(t.db, t.storeId), {
					orderId: placed.id,
					effect: { kind: 'paid', amountMinor: placed.totalMinor + 500, currency: 'USD' },
				})
			).outcome,
		).toBe('applied')
		await expect(orders.act(placed.number, 'refund', { refundMinor: placed.totalMinor + 501 })).rejects.toMatchObject({ status: 400, field: 'amount' })
		await orders.act(placed.number, 'refund', { refundMinor: placed.totalMinor })
		expect(await orders.byNumber(placed.number)).toMatchObject({ status: 'paid', capturedMinor: placed.totalMinor + 500, refundedMinor: placed.totalMinor })
		await orders.act(placed.number, 'refund')
		expect(await orders.byNumber(placed.number)).toMatchObject({ status: 'refunded', refundedMinor: placed.totalMinor + 500 })
		await expect(orders.act(placed.number, 'refund', { refundMinor: 1 })).rejects.toMatchObject({ status: 409 })
	})

	it('finds no order of another Store, by number or search', async () => {
		const { placed } = await order()
		await expect(adminOrdersRepository(t.db, otherAdmin).byNumber(placed.number)).rejects.toMatchObject({ status: 404 })
		await expect(adminOrdersRepository(t.db, otherAdmin).act(placed.number, 'mark_paid')).rejects.toMatchObject({ status: 404 })
		expect((await adminOrdersRepository(t.db, otherAdmin).page({ query: DETAILS.email })).total).toBe(0)
		expect((await adminOrdersRepository(t.db, admin).page({ query: `#${placed.number}` })).orders.map((o) => o.number)).toContain(placed.number)
	})

	it('records a refund form once: sent again with what it saw refunded, it records nothing; errors speak money [R66]', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(placed.number, 'mark_paid')
		const refunded = async () => (await t.db.order.findUniqueOrThrow({ where: { id: placed.id }, select: { refundedMinor: true } })).refundedMinor
		await orders.act(placed.number, 'refund', { refundMinor: 200, refundedBefore: 0 })
		await expect(orders.act(placed.number, 'refund', { refundMinor: 200, refundedBefore: 0 })).rejects.toMatchObject({ status: 409 })
		expect(await refunded()).toBe(200)
		await expect(orders.act(placed.number, 'refund', { refundMinor: 99_999, refundedBefore: 200 })).rejects.toMatchObject({
			status: 400,
			field: 'amount',
			message: 'That is more than the $13.00 left to refund (captured and not yet refunded).',
		})
		await orders.act(placed.number, 'refund', { refundMinor: 300, refundedBefore: 200 })
		expect(await refunded()).toBe(500)
	})

	it('ships with a carrier and tracking number the customer sees, and keeps a timeline of every change with notes, in its own Store only [R116]', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(placed.number, 'mark_paid')
		await orders.note(placed.number, 'Customer asked for gift wrap.\nUse the blue paper.')
		await orders.act(placed.number, 'fulfil', { shipment: { carrier: 'DHL', trackingNumber: 'JD0146 0001' } })
		const shown = await orders.byNumber(placed.number)
		expect(shown).toMatchObject({ status: 'fulfilled', carrier: 'DHL', trackingNumber: 'JD0146 0001' })
		expect(shown.shippedAt).toBeInstanceOf(Date)
		const whats = shown.timeline.map((entry) => entry.what)
		expect(whats[0]).toBe('Placed')
		expect(whats).toEqual(expect.arrayContaining(['Marked paid', 'Note', 'Marked shipped: DHL JD0146 0001']))
		expect(whats.indexOf('Marked paid')).toBeLessThan(whats.indexOf('Marked shipped: DHL JD0146 0001'))
		// A mail the Order owes is on the timeline, queued until the worker sends it.
		await enqueueMail(
			t.db,
			{ storeId: t.storeId, kind: 'order-fulfilled', subjectId: placed.id, toAddress: 'buyer@example.com', dedupeKey: `order:${placed.id}:fulfilled` },
			true,
		)
		expect((await orders.byNumber(placed.number)).timeline.at(-1)?.what).toBe('Email queued: shipped notice to buyer@example.com')
		// The shipped notice carries the tracking number, never the note.
		const mail = await orderMailRenderer(t.db, 'order-fulfilled')({ storeId: t.storeId, subjectId: placed.id, toAddress: 'buyer@example.com' })
		expect(mail?.text).toContain('DHL tracking number: JD0146 0001')
		expect(mail?.text).not.toContain('gift wrap')
		const note = shown.timeline.find((entry) => entry.what === 'Note')!
		expect(note).toMatchObject({ note: 'Customer asked for gift wrap.\nUse the blue paper.', by: admin.email })
		// Another Store's admin can neither read nor write this Order's notes.
		const other = adminOrdersRepository(t.db, otherAdmin)
		await expect(other.note(placed.number, 'Not mine')).rejects.toMatchObject({ status: 404 })
		await expect(other.byNumber(placed.number)).rejects.toMatchObject({ status: 404 })
		expect((await orders.byNumber(placed.number)).timeline.filter((entry) => entry.what === 'Note')).toHaveLength(1)
	})

	it('lists an Order’s lines in the order its cart held them: on the Order page, in Store Admin and in its mail', async () => {
		// Eight lines: a random order would match the cart's once in 40,320.
		const titles = ['Hat', 'Scarf', 'Mug', 'Tote', 'Pen', 'Cap', 'Sock', 'Bag'].map((name) => `${name} ${randomUUID().slice(0, 6)}`)
		const guest = newGuest(t.storeId)
		for (const title of titles) {
			const product = await createProduct(t.db, t.storeId, { title, priceMinor: 500 })
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		}
		const { order } = await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		expect((await ordersRepository(t.db, guest).byToken(order.token))?.lines.map((line) => line.title)).toEqual(titles)
		expect((await adminOrdersRepository(t.db, admin).byNumber(order.number)).lines.map((line) => line.title)).toEqual(titles)
		const mail = await orderMailRenderer(t.db, 'order-placed')({ storeId: t.storeId, subjectId: order.id, toAddress: 'buyer@example.com' })
		const listed = titles.map((title) => mail!.text.indexOf(title))
		expect(listed.every((at) => at >= 0)).toBe(true)
		expect(listed).toEqual([...listed].sort((a, b) => a - b))
	})

	it('keeps the mails of an Order on its timeline in the order they were queued, also when queued within one millisecond', async () => {
		const { placed } = await order()
		for (const kind of ['order-placed', 'order-paid'] as const) {
			await enqueueMail(t.db, { storeId: t.storeId, kind, subjectId: placed.id, toAddress: DETAILS.email, dedupeKey: `order:${placed.id}:${kind}` }, true)
		}
		// Two mails of one millisecond share a createdAt: the order must not then come from an index.
		const same = new Date('2026-01-01T00:00:00.000Z')
		expect((await t.db.outboxMail.updateMany({ where: { storeId: t.storeId, subjectId: placed.id }, data: { createdAt: same } })).count).toBe(2)
		const mails = (await adminOrdersRepository(t.db, admin).byNumber(placed.number)).timeline.filter((entry) => entry.what.startsWith('Email'))
		expect(mails.map((entry) => entry.what)).toEqual([
			`Email queued: order confirmation to ${DETAILS.email}`,
			`Email queued: payment received to ${DETAILS.email}`,
		])
	})

	it('ships without tracking as before, and a refund on the timeline speaks money', async () => {
		const { placed } = await order()
		const orders = adminOrdersRepository(t.db, admin)
		await orders.act(placed.number, 'mark_paid')
		await orders.act(placed.number, 'refund', { refundMinor: 150, refundedBefore: 0 })
		await orders.act(placed.number, 'fulfil')
		const shown = await orders.byNumber(placed.number)
		expect(shown).toMatchObject({ carrier: null, trackingNumber: null })
		const whats = shown.timeline.map((entry) => entry.what)
		expect(whats).toContain('Refund recorded: $1.50')
		expect(whats).toContain('Marked shipped')
	})
})
