import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, createProductWithVariants, newGuest, offline, singleVariantInput, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { cartRepository } from '../cart/cart.server'
import type { AdminViewer } from '../data/viewer'
import { adminOrdersRepository } from '../orders/admin-orders.server'
import { placeOrder } from '../orders/checkout.server'
import { ordersRepository } from '../orders/orders.server'
import { adminProductsRepository, type ProductInput } from './admin-products.server'
import { catalogRepository, forgetCatalog } from './catalog.server'

describe.each(PROVIDERS)('variants on %s [R121]', (provider) => {
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

	const tag = () => randomUUID().slice(0, 8).toUpperCase()
	const shirt = (sku = tag()): ProductInput => ({
		title: 'Linen shirt',
		slug: `shirt-${sku.toLowerCase()}`,
		description: '',
		status: 'active',
		imageKey: null,
		optionNames: ['Size', 'Colour'],
		variants: [
			{ optionValues: ['S', 'Blue'], sku: `${sku}-S-B`, priceMinor: 4500, stock: 3, imageKey: null },
			{ optionValues: ['M', 'Blue'], sku: `${sku}-M-B`, priceMinor: 4500, stock: 1, imageKey: null },
			{ optionValues: ['L', 'Sand'], sku: `${sku}-L-S`, priceMinor: 4900, stock: 0, imageKey: null },
		],
	})
	const variantsOf = (productId: string) =>
		t.db.productVariant.findMany({
			where: { productId },
			orderBy: { position: 'asc' },
			select: { id: true, title: true, optionValues: true, sku: true, priceMinor: true, stock: true },
		})
	const state = async (productId: string) => ({
		product: await t.db.product.findUniqueOrThrow({ where: { id: productId }, select: { title: true, priceMinor: true, optionNames: true } }),
		variants: await variantsOf(productId),
	})

	it('creates a product with options and variants, each with its own SKU, price and stock; the product shows the lowest price', async () => {
		const input = shirt()
		const { id } = await adminProductsRepository(t.db, admin).create(input)
		const { product, variants } = await state(id)
		expect(product).toEqual({ title: 'Linen shirt', priceMinor: 4500, optionNames: '["Size","Colour"]' })
		expect(variants.map(({ id: _id, ...variant }) => variant)).toEqual([
			{ title: 'S / Blue', optionValues: '["S","Blue"]', sku: input.variants[0]!.sku, priceMinor: 4500, stock: 3 },
			{ title: 'M / Blue', optionValues: '["M","Blue"]', sku: input.variants[1]!.sku, priceMinor: 4500, stock: 1 },
			{ title: 'L / Sand', optionValues: '["L","Sand"]', sku: input.variants[2]!.sku, priceMinor: 4900, stock: 0 },
		])
		expect(await t.db.auditEntry.count({ where: { targetId: id } })).toBe(1)
		// Shoppers see each variant's price and stock, and the card the stock of all of them.
		forgetCatalog()
		const page = await catalogRepository(t.db, newGuest(t.storeId)).bySlug(input.slug)
		expect(page).toMatchObject({ stock: 4, priceVaries: true, optionNames: ['Size', 'Colour'] })
		expect(page?.variants.map((variant) => [variant.title, variant.priceMinor, variant.stock])).toEqual([
			['S / Blue', 4500, 3],
			['M / Blue', 4500, 1],
			['L / Sand', 4900, 0],
		])
		expect(JSON.stringify(page)).not.toContain(input.variants[0]!.sku!)
	})

	it('updates variants in one write: edits kept ones, adds new ones, deletes the ones left out', async () => {
		const input = shirt()
		const products = adminProductsRepository(t.db, admin)
		const { id } = await products.create(input)
		const [small, medium] = await variantsOf(id)
		await products.update(id, {
			...input,
			variants: [
				{ id: small!.id, optionValues: ['S', 'Blue'], sku: small!.sku, priceMinor: 3900, stock: 10, imageKey: null },
				{ optionValues: ['XL', 'Blue'], sku: null, priceMinor: 5200, stock: 2, imageKey: null },
				{ id: medium!.id, optionValues: ['M', 'Blue'], sku: medium!.sku, priceMinor: 4500, stock: 1, imageKey: null },
			],
		})
		const after = await state(id)
		expect(after.product.priceMinor).toBe(3900)
		expect(after.variants.map((variant) => [variant.title, variant.priceMinor, variant.stock])).toEqual([
			['S / Blue', 3900, 10],
			['XL / Blue', 5200, 2],
			['M / Blue', 4500, 1],
		])
		expect(after.variants[0]!.id).toBe(small!.id)
	})

	it('refuses another product’s variant id, an image outside the gallery, negative stock, twin variants and a SKU another product has, saving nothing', async () => {
		const products = adminProductsRepository(t.db, admin)
		const mine = shirt()
		const theirs = shirt()
		const { id } = await products.create(mine)
		const other = await products.create(theirs)
		const [foreign] = await variantsOf(other.id)
		const before = await state(id)
		const [first] = before.variants
		const keep = { id: first!.id, optionValues: ['S', 'Blue'], sku: first!.sku, priceMinor: 100, stock: 1, imageKey: null }
		const attempts: Array<[ProductInput, number]> = [
			[{ ...mine, variants: [keep, { ...keep, id: foreign!.id, optionValues: ['M', 'Blue'], sku: null }] }, 400],
			[{ ...mine, variants: [{ ...keep, imageKey: `stores/${t.storeId}/uploads/${'b'.repeat(32)}.png` }] }, 400],
			[{ ...mine, variants: [{ ...keep, stock: -1 }] }, 400],
			[{ ...mine, variants: [keep, { ...keep, id: undefined, sku: null, optionValues: ['s', 'BLUE'] }] }, 400],
			[{ ...mine, variants: [{ ...keep, sku: theirs.variants[0]!.sku }] }, 409],
			[{ ...mine, optionNames: [], variants: [keep] }, 400],
		]
		for (const [attempt, status] of attempts) {
			await expect(products.update(id, attempt), JSON.stringify(attempt.variants)).rejects.toMatchObject({ status })
			expect(await state(id)).toEqual(before)
		}
		expect(await variantsOf(other.id)).toHaveLength(3)
		// Another Store's admin reaches neither the product nor its variants.
		await expect(adminProductsRepository(t.db, otherAdmin).update(id, mine)).rejects.toMatchObject({ status: 404 })
		expect(await state(id)).toEqual(before)
	})

	it('a cart holds a chosen variant of the product: none chosen, another product’s variant or a sold-out one is refused and changes nothing', async () => {
		const product = await createProductWithVariants(t.db, t.storeId, {
			optionNames: ['Size'],
			variants: [
				{ values: ['S'], priceMinor: 1000, stock: 5 },
				{ values: ['M'], priceMinor: 1200, stock: 0 },
			],
		})
		const other = await createProduct(t.db, t.storeId)
		const guest = newGuest(t.storeId)
		const cart = cartRepository(t.db, guest)
		const [small, medium] = product.variants
		await expect(cart.add({ productId: product.id, quantity: 1 })).rejects.toMatchObject({ status: 400, field: 'variantId' })
		await expect(cart.add({ productId: product.id, variantId: other.variantId, quantity: 1 })).rejects.toMatchObject({ status: 404 })
		await expect(cart.add({ productId: other.id, variantId: small!.id, quantity: 1 })).rejects.toMatchObject({ status: 404 })
		await expect(cart.add({ productId: product.id, variantId: medium!.id, quantity: 1 })).rejects.toMatchObject({ status: 409 })
		await expect(cart.add({ productId: product.id, variantId: small!.id, quantity: 6 })).rejects.toMatchObject({ status: 409 })
		expect((await cart.summary()).lines).toEqual([])
		// A product of one variant needs none chosen.
		await cart.add({ productId: other.id, quantity: 1 })
		await cart.add({ productId: product.id, variantId: small!.id, quantity: 2 })
		const { lines, subtotalMinor } = await cart.summary()
		expect(lines.map((line) => [line.product.id, line.variant.title, line.quantity])).toEqual([
			[other.id, '', 1],
			[product.id, 'S', 2],
		])
		expect(subtotalMinor).toBe(1500 + 2000)
	})

	it('checkout takes stock per variant, the Order keeps the variant, and a cancel gives it back to that variant', async () => {
		const sku = tag()
		const product = await createProductWithVariants(t.db, t.storeId, {
			optionNames: ['Size'],
			variants: [
				{ values: ['S'], priceMinor: 1000, stock: 5, sku: `${sku}-S` },
				{ values: ['M'], priceMinor: 1200, stock: 4, sku: `${sku}-M` },
			],
		})
		const [small, medium] = product.variants
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, variantId: medium!.id, quantity: 3 })
		await cartRepository(t.db, guest).add({ productId: product.id, variantId: small!.id, quantity: 1 })
		const { order } = await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		expect([await stockOf(t.db, small!.id), await stockOf(t.db, medium!.id)]).toEqual([4, 1])
		expect(order.totalMinor).toBe(3 * 1200 + 1000)
		const seen = await ordersRepository(t.db, guest).byToken(order.token)
		expect(seen?.lines.map((line) => [line.title, line.variantTitle, line.unitPriceMinor, line.quantity])).toEqual([
			[product.title, 'M', 1200, 3],
			[product.title, 'S', 1000, 1],
		])
		// The SKU is Store Admin's: on its view of the Order, not in the buyer's.
		expect(JSON.stringify(seen)).not.toContain(sku)
		expect((await adminOrdersRepository(t.db, admin).byNumber(order.number)).lines.map((line) => line.sku)).toEqual([`${sku}-M`, `${sku}-S`])
		// Later edits of the variant change no Order.
		await t.db.productVariant.update({ where: { id: medium!.id }, data: { title: 'Medium', priceMinor: 1 } })
		expect((await ordersRepository(t.db, guest).byToken(order.token))?.lines[0]).toMatchObject({ variantTitle: 'M', unitPriceMinor: 1200 })
		await adminOrdersRepository(t.db, admin).act(order.number, 'cancel')
		expect([await stockOf(t.db, small!.id), await stockOf(t.db, medium!.id)]).toEqual([5, 4])
	})

	it('sells the last unit of a variant once when two checkouts race for it, while its sibling stays for sale', async () => {
		const product = await createProductWithVariants(t.db, t.storeId, {
			optionNames: ['Colour'],
			variants: [
				{ values: ['Red'], priceMinor: 1000, stock: 1 },
				{ values: ['Green'], priceMinor: 1000, stock: 5 },
			],
		})
		const [red, green] = product.variants
		const guests = [newGuest(t.storeId), newGuest(t.storeId)]
		for (const guest of guests) await cartRepository(t.db, guest).add({ productId: product.id, variantId: red!.id, quantity: 1 })
		const results = await Promise.allSettled(
			guests.map((guest) => placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })),
		)
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 409 } })
		expect([await stockOf(t.db, red!.id), await stockOf(t.db, green!.id)]).toEqual([0, 5])
	})

	it('a single-variant product keeps working through the admin form’s shape', async () => {
		const slug = `one-${randomUUID().slice(0, 8)}`
		const { id } = await adminProductsRepository(t.db, admin).create(
			singleVariantInput({ title: 'Mug', slug, description: '', priceMinor: 1600, stock: 4, status: 'active' as const, imageKey: null }),
		)
		expect((await state(id)).variants.map((variant) => [variant.title, variant.optionValues, variant.priceMinor, variant.stock])).toEqual([['', '[]', 1600, 4]])
	})
})
