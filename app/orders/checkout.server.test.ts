import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, asCustomer, createProduct, createProductWithVariants, newGuest, offline, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import { cartRepository, mergeGuestCart } from '../cart/cart.server'
import { MAX_ORDER_TOTAL_MINOR, MAX_UNIT_PRICE_MINOR } from '../rules/limits'
import { claimGuestOrders } from './claim.server'
import { placeOrder } from './checkout.server'
import { customerOrdersRepository, ordersRepository } from './orders.server'
import { hashOrderToken } from './token.server'
import { unverifiedScope } from '../data/scope'

describe.each(PROVIDERS)('carts and checkout on %s', (provider) => {
	let t: TestDatabase
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(() => t.db.$disconnect())

	const checkout = (viewer: Parameters<typeof placeOrder>[0]['viewer'], key = randomUUID()) =>
		placeOrder({ db: t.db, viewer, details: DETAILS, connectionHandle: 'offline', idempotencyKey: key })

	it('keeps each line of a cart of three as it was bought: product, variant, title, SKU, price, quantity and total [R121]', async () => {
		const shirt = await createProductWithVariants(t.db, t.storeId, {
			optionNames: ['Size'],
			variants: [
				{ values: ['S'], priceMinor: 2100, stock: 5, sku: 'TEE-S' },
				{ values: ['M'], priceMinor: 2300, stock: 5 },
			],
		})
		const mug = await createProduct(t.db, t.storeId, { priceMinor: 900, title: 'Mug “Ø”' })
		const guest = newGuest(t.storeId)
		const cart = cartRepository(t.db, guest)
		await cart.add({ productId: shirt.id, variantId: shirt.variants[0]!.id, quantity: 2 })
		await cart.add({ productId: mug.id, quantity: 3 })
		await cart.add({ productId: shirt.id, variantId: shirt.variants[1]!.id, quantity: 1 })
		const { order } = await checkout(guest)
		const row = await t.db.order.findUniqueOrThrow({
			where: { id: order.id },
			select: {
				subtotalMinor: true,
				lines: {
					orderBy: { unitPriceMinor: 'asc' },
					select: {
						orderId: true,
						productId: true,
						variantId: true,
						title: true,
						variantTitle: true,
						sku: true,
						unitPriceMinor: true,
						quantity: true,
						lineTotalMinor: true,
					},
				},
			},
		})
		expect(row.subtotalMinor).toBe(2 * 2100 + 3 * 900 + 2300)
		expect(row.lines).toEqual([
			{
				orderId: order.id,
				productId: mug.id,
				variantId: mug.variantId,
				title: 'Mug “Ø”',
				variantTitle: '',
				sku: null,
				unitPriceMinor: 900,
				quantity: 3,
				lineTotalMinor: 2700,
			},
			{
				orderId: order.id,
				productId: shirt.id,
				variantId: shirt.variants[0]!.id,
				title: shirt.title,
				variantTitle: 'S',
				sku: 'TEE-S',
				unitPriceMinor: 2100,
				quantity: 2,
				lineTotalMinor: 4200,
			},
			{
				orderId: order.id,
				productId: shirt.id,
				variantId: shirt.variants[1]!.id,
				title: shirt.title,
				variantTitle: 'M',
				sku: null,
				unitPriceMinor: 2300,
				quantity: 1,
				lineTotalMinor: 2300,
			},
		])
		expect(order.lines).toHaveLength(3)
	})

	describe('owner scoping [R2] (Cart belongs to a Customer or a Guest; [R30])', () => {
		it('keeps each guest’s cart to itself: another owner’s line id is a 404 and changes nothing', async () => {
			const product = await createProduct(t.db, t.storeId)
			const alice = newGuest(t.storeId)
			const mallory = newGuest(t.storeId)
			await cartRepository(t.db, alice).add({ productId: product.id, quantity: 2 })
			const [line] = (await cartRepository(t.db, alice).summary()).lines
			await expect(cartRepository(t.db, mallory).update(line!.id, 1)).rejects.toMatchObject({ status: 404 })
			await expect(cartRepository(t.db, mallory).remove(line!.id)).rejects.toMatchObject({ status: 404 })
			expect((await cartRepository(t.db, mallory).summary()).lines).toHaveLength(0)
			expect((await cartRepository(t.db, alice).summary()).lines[0]?.quantity).toBe(2)
		})

		it('refuses draft, archived, unknown and another Store’s products with 404', async () => {
			const guest = newGuest(t.storeId)
			const draft = await createProduct(t.db, t.storeId, { status: 'draft' })
			const archived = await createProduct(t.db, t.storeId, { status: 'archived' })
			const foreign = await createProduct(t.db, otherStoreId)
			for (const id of [draft.id, archived.id, foreign.id, 'no-such-product']) {
				await expect(cartRepository(t.db, guest).add({ productId: id, quantity: 1 })).rejects.toMatchObject({ status: 404 })
			}
			expect(await cartRepository(t.db, guest).itemCount()).toBe(0)
		})

		it('caps quantities by stock and computes totals from current prices', async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 3, priceMinor: 1250 })
			const guest = newGuest(t.storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
			await expect(cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })).rejects.toMatchObject({ status: 409 })
			await t.db.productVariant.update({ where: { id: product.variantId }, data: { priceMinor: 999 } })
			const summary = await cartRepository(t.db, guest).summary()
			expect(summary.subtotalMinor).toBe(2 * 999)
			expect(summary.itemCount).toBe(2)
		})
	})

	describe('checkout (spec: Checkout requests)', () => {
		it('creates the Order in one transaction: snapshot, stock decremented, cart emptied', async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 5, priceMinor: 2000 })
			const guest = newGuest(t.storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
			const { order, replayed } = await checkout(guest)
			expect(replayed).toBe(false)
			expect(order.totalMinor).toBe(4000)
			expect(order.status).toBe('awaiting_payment')
			expect(order.number).toBeGreaterThanOrEqual(1001)
			expect(order.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
			expect(await stockOf(t.db, product.variantId)).toBe(3)
			expect(await cartRepository(t.db, guest).itemCount()).toBe(0)
			// The price snapshot does not follow later price changes.
			await t.db.productVariant.update({ where: { id: product.variantId }, data: { priceMinor: 1 } })
			const seen = await ordersRepository(t.db, guest).byToken(order.token)
			expect(seen?.lines[0]).toMatchObject({ unitPriceMinor: 2000, quantity: 2, lineTotalMinor: 4000 })
			const row = await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { tokenHash: true } })
			expect(row.tokenHash).toBe(hashOrderToken(order.token))
			expect(row.tokenHash).not.toBe(order.token)
		})

		it('a replayed or double-clicked submit returns the first Order, never a second', async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 5 })
			const guest = newGuest(t.storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
			const key = randomUUID()
			const [a, b] = await Promise.all([checkout(guest, key), checkout(guest, key)])
			expect(a.order.id).toBe(b.order.id)
			const again = await checkout(guest, key)
			expect(again).toMatchObject({ replayed: true, order: { id: a.order.id } })
			expect(await t.db.order.count({ where: { storeId: t.storeId, idempotencyKey: key } })).toBe(1)
			expect(await stockOf(t.db, product.variantId)).toBe(4)
			// The same key from another session is a conflict, not someone else's Order.
			await expect(checkout(newGuest(t.storeId), key)).rejects.toMatchObject({ status: 409 })
		})

		it('sells the last unit once when two checkouts race for it; stock never goes negative', async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 1 })
			const buyers = [newGuest(t.storeId), newGuest(t.storeId)]
			for (const buyer of buyers) await cartRepository(t.db, buyer).add({ productId: product.id, quantity: 1 })
			const results = await Promise.allSettled(buyers.map((buyer) => checkout(buyer)))
			expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
			const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
			expect(refused.reason).toMatchObject({ status: 409 })
			expect(await stockOf(t.db, product.variantId)).toBe(0)
			expect(await t.db.orderLine.count({ where: { productId: product.id } })).toBe(1)
		})

		it('refuses an empty cart and a product gone out of stock or unpublished since it was added', async () => {
			await expect(checkout(newGuest(t.storeId))).rejects.toMatchObject({ status: 409 })
			const product = await createProduct(t.db, t.storeId, { stock: 2 })
			const guest = newGuest(t.storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
			await t.db.productVariant.update({ where: { id: product.variantId }, data: { stock: 1 } })
			await expect(checkout(guest)).rejects.toMatchObject({ status: 409 })
			await t.db.productVariant.update({ where: { id: product.variantId }, data: { stock: 5 } })
			await t.db.product.update({ where: { id: product.id }, data: { status: 'archived' } })
			await expect(checkout(guest)).rejects.toMatchObject({ status: 409 })
			expect(await cartRepository(t.db, guest).itemCount()).toBe(2)
			expect(await stockOf(t.db, product.variantId)).toBe(5)
		})

		it('refuses a payment method the Store does not offer', async () => {
			const product = await createProduct(t.db, t.storeId)
			const guest = newGuest(t.storeId)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
			await expect(
				placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'stripe-of-another-store', idempotencyKey: randomUUID() }),
			).rejects.toMatchObject({ status: 400 })
		})
	})

	describe('order numbers from the Store’s counter [R67]', () => {
		it('numbers a new Store’s Orders from #1001, one up each time, from its own counter; a refused checkout uses no number [R67] [R4]', async () => {
			const store = await t.db.store.create({ data: { handle: `n-${randomUUID()}`, name: 'Numbers' }, select: { id: true } })
			await offline(t.db, store.id)
			const product = await createProduct(t.db, store.id, { stock: 3 })
			const buy = async (quantity: number) => {
				const guest = newGuest(store.id)
				await cartRepository(t.db, guest).add({ productId: product.id, quantity: quantity })
				return checkout(guest)
			}
			expect((await buy(1)).order.number).toBe(1001)
			await expect(buy(3)).rejects.toMatchObject({ status: 409 })
			expect((await buy(1)).order.number).toBe(1002)
			expect((await t.db.store.findUniqueOrThrow({ where: { id: store.id }, select: { lastOrderNumber: true } })).lastOrderNumber).toBe(1002)
			// Another Store's checkouts leave this counter alone.
			expect((await t.db.store.findUniqueOrThrow({ where: { id: otherStoreId }, select: { lastOrderNumber: true } })).lastOrderNumber).toBe(1000)
		})

		it('takes the number from the counter, not from the highest Order: a counter moved on is followed [R67]', async () => {
			const store = await t.db.store.create({ data: { handle: `c-${randomUUID()}`, name: 'Counter', lastOrderNumber: 4999 }, select: { id: true } })
			await offline(t.db, store.id)
			const product = await createProduct(t.db, store.id)
			const guest = newGuest(store.id)
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
			expect((await checkout(guest)).order.number).toBe(5000)
		})
	})

	describe('money and quantity limits both engines hold [R67]', () => {
		/** A product priced before the limits existed: only the database still holds such a price. */
		async function legacyCart(priceMinor: number, quantity: number) {
			const product = await createProduct(t.db, t.storeId, { stock: 10 })
			await t.db.productVariant.update({ where: { id: product.variantId }, data: { priceMinor } })
			const guest = newGuest(t.storeId)
			const cart = await t.db.cart.create({ data: { storeId: t.storeId, guestId: guest.guestId }, select: { id: true } })
			await t.db.cartLine.create({ data: { cartId: cart.id, productId: product.id, variantId: product.variantId, quantity } })
			return { product, guest }
		}

		it('refuses to check out 3 × 9,999,999.99 with a 409 that changes nothing; places exactly the most one Order may total [R67]', async () => {
			const { product, guest } = await legacyCart(999_999_999, 3)
			const key = randomUUID()
			await expect(checkout(guest, key)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('more than one order may total') })
			expect(await stockOf(t.db, product.variantId)).toBe(10)
			expect(await cartRepository(t.db, guest).itemCount()).toBe(3)
			expect(await t.db.order.count({ where: { storeId: t.storeId, idempotencyKey: key } })).toBe(0)

			const atTheLimit = await legacyCart(MAX_ORDER_TOTAL_MINOR / 3, 3)
			const { order } = await checkout(atTheLimit.guest)
			expect(order.totalMinor).toBe(MAX_ORDER_TOTAL_MINOR)
			const row = await t.db.order.findUniqueOrThrow({ where: { id: order.id }, select: { subtotalMinor: true, lines: { select: { lineTotalMinor: true } } } })
			expect(row).toEqual({ subtotalMinor: MAX_ORDER_TOTAL_MINOR, lines: [{ lineTotalMinor: MAX_ORDER_TOTAL_MINOR }] })
		})

		it('keeps a cart within the most one Order may total: adding or raising past it is a 409 that changes nothing [R67]', async () => {
			const dear = await createProduct(t.db, t.storeId, { stock: 10, priceMinor: MAX_UNIT_PRICE_MINOR })
			const cheap = await createProduct(t.db, t.storeId, { stock: 10, priceMinor: 100 })
			const guest = newGuest(t.storeId)
			const cart = cartRepository(t.db, guest)
			await cart.add({ productId: dear.id, quantity: 1 })
			await expect(cart.add({ productId: dear.id, quantity: 1 })).rejects.toMatchObject({ status: 409, field: 'quantity' })
			await expect(cart.add({ productId: cheap.id, quantity: 1 })).rejects.toMatchObject({ status: 409, field: 'quantity' })
			const [line] = (await cart.summary()).lines
			await expect(cart.update(line!.id, 2)).rejects.toMatchObject({ status: 409, field: 'quantity' })
			const summary = await cart.summary()
			expect(summary.lines.map((l) => [l.product.id, l.quantity])).toEqual([[dear.id, 1]])
			expect(summary.subtotalMinor).toBe(MAX_UNIT_PRICE_MINOR)
		})
	})

	describe('orders belong to their owner', () => {
		it('shows a Customer only their own Orders; a guest only through the token', async () => {
			const product = await createProduct(t.db, t.storeId)
			const me = await signUpCustomer(t.auth)
			const other = await signUpCustomer(t.auth)
			const viewer = asCustomer(t.storeId, me.userId, me.email)
			await cartRepository(t.db, viewer).add({ productId: product.id, quantity: 1 })
			const { order } = await checkout(viewer)
			expect((await customerOrdersRepository(t.db, viewer).list()).map((o) => o.number)).toContain(order.number)
			const stranger = asCustomer(t.storeId, other.userId, other.email)
			expect(await customerOrdersRepository(t.db, stranger).byNumber(order.number)).toBeNull()
			expect((await customerOrdersRepository(t.db, stranger).list()).map((o) => o.number)).not.toContain(order.number)
			// The token works only in its Store, and only when well formed.
			expect(await ordersRepository(t.db, newGuest(otherStoreId)).byToken(order.token)).toBeNull()
			expect(await ordersRepository(t.db, newGuest(t.storeId)).byToken(`${order.token.slice(0, 42)}x`)).toBeNull()
			expect(await ordersRepository(t.db, newGuest(t.storeId)).byToken(String(order.number))).toBeNull()
		})

		it("offers a Customer the address of their own latest Order, and nobody else's", async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 10 })
			const me = await signUpCustomer(t.auth)
			const other = await signUpCustomer(t.auth)
			const viewer = asCustomer(t.storeId, me.userId, me.email)
			const stranger = asCustomer(t.storeId, other.userId, other.email)
			expect(await customerOrdersRepository(t.db, viewer).lastShippingAddress()).toBeNull()
			await cartRepository(t.db, viewer).add({ productId: product.id, quantity: 1 })
			await checkout(viewer)
			await new Promise((resolve) => setTimeout(resolve, 5))
			await cartRepository(t.db, viewer).add({ productId: product.id, quantity: 1 })
			const moved = { ...DETAILS, addressLine1: '9 Harbour Road', city: 'Portsmouth', postalCode: 'PO1 2AB', country: 'GB' }
			await placeOrder({ db: t.db, viewer, details: moved, connectionHandle: 'offline', idempotencyKey: randomUUID() })
			expect(await customerOrdersRepository(t.db, viewer).lastShippingAddress()).toEqual({
				name: moved.name,
				addressLine1: '9 Harbour Road',
				addressLine2: '',
				city: 'Portsmouth',
				postalCode: 'PO1 2AB',
				country: 'GB',
			})
			expect(await customerOrdersRepository(t.db, stranger).lastShippingAddress()).toBeNull()
			expect(await customerOrdersRepository(t.db, { ...viewer, storeId: otherStoreId }).lastShippingAddress()).toBeNull()
		})

		it('lists a Customer’s Orders newest first, also when they were placed within one millisecond, and offers the last one’s address', async () => {
			const product = await createProduct(t.db, t.storeId, { stock: 10 })
			const me = await signUpCustomer(t.auth)
			const viewer = asCustomer(t.storeId, me.userId, me.email)
			const cities = ['Leeds', 'York', 'Bath']
			const numbers: number[] = []
			for (const city of cities) {
				await cartRepository(t.db, viewer).add({ productId: product.id, quantity: 1 })
				const { order } = await placeOrder({ db: t.db, viewer, details: { ...DETAILS, city }, connectionHandle: 'offline', idempotencyKey: randomUUID() })
				numbers.push(order.number)
			}
			// Orders of one millisecond share a createdAt: the order must not then come from an index
			// or the table's own order. The first and last swap numbers, so that the Order placed
			// last by its number is the first row written.
			await t.db.order.updateMany({ where: { storeId: t.storeId, userId: me.userId }, data: { createdAt: new Date('2026-01-01T00:00:00.000Z') } })
			const [first, , last] = numbers as [number, number, number]
			const renumber = (from: number, to: number) => t.db.order.updateMany({ where: { storeId: t.storeId, number: from }, data: { number: to } })
			await renumber(first, -first)
			await renumber(last, first)
			await renumber(-first, last)
			const orders = customerOrdersRepository(t.db, viewer)
			expect((await orders.list()).map((o) => o.number)).toEqual([...numbers].reverse())
			expect((await orders.lastShippingAddress())?.city).toBe('Leeds')
		})
	})

	describe('signing in keeps the guest cart [R2]', () => {
		it('merges quantities, capped by stock, and removes the guest cart', async () => {
			const a = await createProduct(t.db, t.storeId, { stock: 3 })
			const b = await createProduct(t.db, t.storeId, { stock: 10 })
			const me = await signUpCustomer(t.auth)
			const guest = newGuest(t.storeId)
			const customer = asCustomer(t.storeId, me.userId, me.email)
			await cartRepository(t.db, customer).add({ productId: a.id, quantity: 2 })
			await cartRepository(t.db, guest).add({ productId: a.id, quantity: 2 })
			await cartRepository(t.db, guest).add({ productId: b.id, quantity: 4 })
			await mergeGuestCart(unverifiedScope(t.db, t.storeId), { guestId: guest.guestId, userId: me.userId })
			const lines = (await cartRepository(t.db, customer).summary()).lines
			expect(Object.fromEntries(lines.map((l) => [l.product.id, l.quantity]))).toEqual({ [a.id]: 3, [b.id]: 4 })
			expect(await t.db.cart.count({ where: { storeId: t.storeId, guestId: guest.guestId } })).toBe(0)
		})

		it('merges on sign-in through better-auth itself, reading the signed guestId cookie', async () => {
			const product = await createProduct(t.db, t.storeId)
			const { issueGuestId } = await import('../auth/guest-cookie.server')
			const issued = await issueGuestId()
			await cartRepository(t.db, { kind: 'guest', storeId: t.storeId, guestId: issued.guestId }).add({ productId: product.id, quantity: 2 })
			const me = await signUpCustomer(t.auth)
			await t.auth.api.signInEmail({
				body: { email: me.email, password: 'correct horse battery' },
				headers: new Headers({ cookie: issued.setCookie.split(';')[0]! }),
			})
			const lines = (await cartRepository(t.db, asCustomer(t.storeId, me.userId, me.email)).summary()).lines
			expect(lines.map((l) => [l.product.id, l.quantity])).toEqual([[product.id, 2]])
		})
	})

	describe('order claiming stays off [R71, R70]', () => {
		async function guestOrder(guestId: string, email: string) {
			const product = await createProduct(t.db, t.storeId)
			const guest = { kind: 'guest' as const, storeId: t.storeId, guestId }
			await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
			return placeOrder({ db: t.db, viewer: guest, details: { ...DETAILS, email }, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		}

		it('claims nothing while the capability is off', async () => {
			const me = await signUpCustomer(t.auth)
			const guestId = randomUUID()
			const { order } = await guestOrder(guestId, me.email)
			expect(await claimGuestOrders(unverifiedScope(t.db, t.storeId), { userId: me.userId, guestId })).toBe(0)
			expect((await t.db.order.findUniqueOrThrow({ where: { id: order.id } })).userId).toBeNull()
		})

		it('when switched on, claims only Orders from the same browser, never by email alone', async () => {
			const me = await signUpCustomer(t.auth)
			const myBrowser = randomUUID()
			const mine = await guestOrder(myBrowser, 'someone@example.com')
			const sameEmailElsewhere = await guestOrder(randomUUID(), me.email)
			const claimed = await claimGuestOrders(unverifiedScope(t.db, t.storeId), { userId: me.userId, guestId: myBrowser, enabled: true })
			expect(claimed).toBe(1)
			expect((await t.db.order.findUniqueOrThrow({ where: { id: mine.order.id } })).userId).toBe(me.userId)
			expect((await t.db.order.findUniqueOrThrow({ where: { id: sameEmailElsewhere.order.id } })).userId).toBeNull()
		})
	})
})
