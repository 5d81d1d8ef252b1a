/**
 * Checkout under contention, through the real route of the production build on both engines
 * [R67]: many guests submitting at once, two carts holding the same products in opposite
 * order, and a row held locked by another connection. Whatever the timing, no answer is a
 * 5xx other than the deliberate 503, which keeps the cart and says when to retry.
 * Needs `npm run build` first (as the end-to-end specs do).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_UNIT_PRICE_MINOR } from '../../app/rules/limits'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { PROVIDERS, openPrivateTestDatabase } from '../helpers/databases'
import { Guest } from '../helpers/shopper'
import { holdRowLock } from '../helpers/locks'

type PrivateDatabase = Awaited<ReturnType<typeof openPrivateTestDatabase>>

describe.each(PROVIDERS)('checkout under contention over HTTP on %s [R67]', (provider) => {
	let t: PrivateDatabase
	let store: StoreProcess

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		store = await startStoreProcess({ databaseUrl: t.url, env: { E2E_DEMO: '0' } })
	}, 120_000)
	afterAll(async () => {
		await store?.stop()
		await t?.close()
	})

	// Every product here is sold as one variant: its stock is the product's.
	const stockOf = async (id: string) => (await t.db.productVariant.aggregate({ where: { productId: id }, _sum: { stock: true } }))._sum.stock ?? 0
	const soldOf = async (id: string) => (await t.db.orderLine.aggregate({ where: { productId: id }, _sum: { quantity: true } }))._sum.quantity ?? 0

	it('48 guests buying different products at once: 48 Orders, no 5xx, 48 consecutive numbers [R67]', async () => {
		const products = await Promise.all(Array.from({ length: 48 }, () => createProduct(t.db, t.storeId, { stock: 5, priceMinor: 1234 })))
		const guests = products.map(() => new Guest(store.origin))
		const forms = await Promise.all(
			guests.map(async (guest, index) => {
				await guest.add(products[index]!.id)
				return guest.checkoutForm(`crowd-${index}@example.com`)
			}),
		)
		const answers = await Promise.all(guests.map((guest, index) => guest.send('/checkout', forms[index])))
		const statuses = answers.map((answer) => answer.status)
		expect(statuses.filter((status) => status >= 500)).toEqual([])
		expect(statuses.every((status) => status === 302)).toBe(true)
		expect(answers.every((answer) => /^\/orders\/[A-Za-z0-9_-]{43}$/.test(answer.headers.get('location') ?? ''))).toBe(true)

		const orders = await t.db.order.findMany({ where: { storeId: t.storeId, email: { startsWith: 'crowd-' } }, select: { number: true, totalMinor: true } })
		expect(orders).toHaveLength(48)
		const numbers = orders.map((order) => order.number).sort((a, b) => a - b)
		expect(new Set(numbers).size).toBe(48)
		expect(numbers.at(-1)! - numbers[0]!).toBe(47)
		expect(orders.every((order) => order.totalMinor === 1234)).toBe(true)
		for (const product of products) expect(await stockOf(product.id)).toBe(4)
	}, 120_000)

	it('20 rounds of two carts holding the same two products in opposite order: no 5xx, stock + sold = initial [R67]', async () => {
		const initial = 100
		const [first, second] = await Promise.all([createProduct(t.db, t.storeId, { stock: initial }), createProduct(t.db, t.storeId, { stock: initial })])
		const statuses: number[] = []
		for (let round = 0; round < 20; round++) {
			const forwards = new Guest(store.origin)
			const backwards = new Guest(store.origin)
			await forwards.add(first!.id)
			await forwards.add(second!.id)
			await backwards.add(second!.id)
			await backwards.add(first!.id)
			const forms = await Promise.all([forwards.checkoutForm(`pair-${round}-a@example.com`), backwards.checkoutForm(`pair-${round}-b@example.com`)])
			const answers = await Promise.all([forwards.send('/checkout', forms[0]), backwards.send('/checkout', forms[1])])
			statuses.push(...answers.map((answer) => answer.status))
		}
		expect(statuses.filter((status) => status >= 500)).toEqual([])
		expect(statuses.filter((status) => status === 302)).toHaveLength(40)
		for (const product of [first!, second!]) {
			expect((await stockOf(product.id)) + (await soldOf(product.id))).toBe(initial)
			expect(await stockOf(product.id)).toBe(initial - 40)
		}
	}, 120_000)

	it('answers 503 with Retry-After and keeps the cart while a row stays locked; the same form succeeds once it is free [R67]', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 7, priceMinor: 990 })
		const guest = new Guest(store.origin)
		await guest.add(product.id, 2)
		const form = await guest.checkoutForm('blocked@example.com')
		const cartBefore = await cartLines(t, guest.guestId())

		const release = await holdRowLock(t.url, product.id)
		let page: Response
		let data: Response
		try {
			page = await guest.send('/checkout', form)
			// The same submit as React Router's client makes it when JavaScript is on.
			data = await guest.send('/checkout.data', form)
		} finally {
			await release()
		}
		const html = await page.text()
		expect(page.status).toBe(503)
		expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(html).toContain('The store is busy')
		expect(html).toContain('Place order')
		expect(data.status).toBe(503)
		expect(Number(data.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(await data.text()).toContain('The store is busy')

		expect(await cartLines(t, guest.guestId())).toEqual(cartBefore)
		expect(await stockOf(product.id)).toBe(7)
		expect(await t.db.order.count({ where: { storeId: t.storeId, idempotencyKey: form.idempotencyKey } })).toBe(0)

		const retried = await guest.send('/checkout', form)
		expect(retried.status).toBe(302)
		expect(await stockOf(product.id)).toBe(5)
		expect(await cartLines(t, guest.guestId())).toEqual([])
	}, 120_000)

	it('refuses 9,999,999.99 on the admin form and 3 × 9,999,999.99 in cart and checkout with a 4xx, changing nothing [R67] [R4]', async () => {
		const admin = new Guest(store.origin)
		expect((await admin.send('/sign-in', { email: store.admin.email, password: store.admin.password, redirectTo: '' })).status).toBe(302)
		const slug = `dear-${randomUUID().slice(0, 8)}`
		const product = { title: 'Dear', slug, description: '', 'variant.0.stock': '5', status: 'active', imageKey: '' }
		for (const price of ['9999999.99', '1000000', 'abc', '-1', '1e3']) {
			const refused = await admin.send('/admin/products/new', { ...product, 'variant.0.price': price })
			expect(refused.status, price).toBe(400)
			expect(await refused.text(), price).toMatch(/field-error[^>]*>Enter a price/)
		}
		expect(await t.db.product.count({ where: { storeId: t.storeId, slug } })).toBe(0)
		expect((await admin.send('/admin/products/new', { ...product, 'variant.0.price': '999999.99' })).status).toBe(302)
		expect((await t.db.product.findFirstOrThrow({ where: { storeId: t.storeId, slug }, select: { priceMinor: true } })).priceMinor).toBe(MAX_UNIT_PRICE_MINOR)

		// A price from before the limits, still in the database: no cart or Order may total 3 × of it.
		const legacy = await createProduct(t.db, t.storeId, { stock: 9 })
		await t.db.productVariant.update({ where: { id: legacy.variantId }, data: { priceMinor: 999_999_999 } })
		const guest = new Guest(store.origin)
		const refusedAdd = await guest.send('/cart', { intent: 'add', productId: legacy.id, quantity: '3' })
		expect(refusedAdd.status).toBe(409)
		expect(await refusedAdd.text()).toContain('more than one order may total')
		expect(await cartLines(t, guest.guestId())).toEqual([])

		const cart = await t.db.cart.upsert({
			where: { storeId_guestId: { storeId: t.storeId, guestId: guest.guestId() } },
			create: { storeId: t.storeId, guestId: guest.guestId() },
			update: {},
			select: { id: true },
		})
		await t.db.cartLine.create({ data: { cartId: cart.id, productId: legacy.id, variantId: legacy.variantId, quantity: 3 } })
		const form = await guest.checkoutForm('dear@example.com')
		const extras: Array<Record<string, string>> = [{ storeId: 'another-store' }, { number: '1' }, { total: '1' }]
		for (const extra of extras) {
			expect((await guest.send('/checkout', { ...form, ...extra })).status, JSON.stringify(extra)).toBe(400)
		}
		const refused = await guest.send('/checkout', form)
		expect(refused.status).toBe(409)
		expect(await refused.text()).toContain('more than one order may total')
		expect(await cartLines(t, guest.guestId())).toEqual([[legacy.id, 3]])
		expect(await stockOf(legacy.id)).toBe(9)
		expect(await t.db.order.count({ where: { storeId: t.storeId, email: 'dear@example.com' } })).toBe(0)
	}, 120_000)
})

async function cartLines(t: PrivateDatabase, guestId: string) {
	const lines = await t.db.cartLine.findMany({
		where: { cart: { storeId: t.storeId, guestId } },
		select: { productId: true, quantity: true },
		orderBy: { productId: 'asc' },
	})
	return lines.map((line) => [line.productId, line.quantity])
}
