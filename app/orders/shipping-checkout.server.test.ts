/**
 * Checkout charges shipping and tax as the Store has set them [R119], on both engines: the rate
 * the buyer chose for their country, the country's tax (added, or included in the prices), all
 * snapshotted on the Order; a rate or country that does not fit is refused with nothing placed.
 * Each test has a Store of its own: other files check out in the shared runtime Store.
 */
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { cartRepository } from '../cart/cart.server'
import { placeOrder } from './checkout.server'
import { orderTotals } from '../rules/totals'

describe.each(PROVIDERS)('shipping and tax at checkout on %s', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	/** A Store shipping to Germany and France (Standard 4.95, free from 50.00; Express 12.00) and to the US (Ground 8.00), taxing Germany at 19%. */
	async function shop({ pricesIncludeTax = false } = {}) {
		const { id: storeId } = await t.db.store.create({ data: { handle: `ship-${randomUUID()}`, name: 'Shipping test', pricesIncludeTax }, select: { id: true } })
		await offline(t.db, storeId)
		const europe = await t.db.shippingZone.create({ data: { storeId, name: 'Europe', countries: 'DE,FR' }, select: { id: true } })
		const us = await t.db.shippingZone.create({ data: { storeId, name: 'United States', countries: 'US' }, select: { id: true } })
		const [standard, express, ground] = await Promise.all([
			t.db.shippingRate.create({ data: { storeId, zoneId: europe.id, name: 'Standard', priceMinor: 495, freeOverMinor: 5000 }, select: { id: true } }),
			t.db.shippingRate.create({ data: { storeId, zoneId: europe.id, name: 'Express', priceMinor: 1200 }, select: { id: true } }),
			t.db.shippingRate.create({ data: { storeId, zoneId: us.id, name: 'Ground', priceMinor: 800 }, select: { id: true } }),
		])
		await t.db.taxRate.create({ data: { storeId, country: 'DE', rateBasisPoints: 1900 } })
		const product = await createProduct(t.db, storeId, { priceMinor: 1250, stock: 20 })
		return { storeId, product, rates: { standard: standard.id, express: express.id, ground: ground.id } }
	}

	async function checkout(storeId: string, productId: string, quantity: number, country: string, shippingRateId?: string) {
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: productId, quantity: quantity })
		const attempt = placeOrder({
			db: t.db,
			viewer: guest,
			details: { ...DETAILS, country },
			connectionHandle: 'offline',
			shippingRateId,
			idempotencyKey: randomUUID(),
		})
		return { guest, attempt }
	}
	const stored = (id: string) =>
		t.db.order.findUniqueOrThrow({
			where: { id },
			select: { subtotalMinor: true, shippingMinor: true, shippingName: true, taxMinor: true, taxRateBasisPoints: true, taxIncluded: true, totalMinor: true },
		})

	it('charges the chosen rate and the country’s tax on goods and shipping, added on top, and keeps them on the Order [R119]', async () => {
		const { storeId, product, rates } = await shop()
		const { order } = await (await checkout(storeId, product.id, 2, 'DE', rates.standard)).attempt
		// 25.00 + 4.95 shipping = 29.95; 19% of it is 5.6905: 5.69.
		expect(await stored(order.id)).toEqual({
			subtotalMinor: 2500,
			shippingMinor: 495,
			shippingName: 'Standard',
			taxMinor: 569,
			taxRateBasisPoints: 1900,
			taxIncluded: false,
			totalMinor: 3564,
		})
		expect(order.totalMinor).toBe(3564)

		// A country without a tax rate pays none; a rate changed later leaves the Order as it was.
		const us = await (await checkout(storeId, product.id, 1, 'US', rates.ground)).attempt
		expect(await stored(us.order.id)).toMatchObject({ shippingMinor: 800, taxMinor: 0, totalMinor: 2050 })
		await t.db.shippingRate.update({ where: { id: rates.ground }, data: { priceMinor: 9999 } })
		expect(await stored(us.order.id)).toMatchObject({ shippingMinor: 800, totalMinor: 2050 })
	})

	it('ships free from the threshold, and with prices that include tax shows the tax inside the total [R119]', async () => {
		const { storeId, product, rates } = await shop({ pricesIncludeTax: true })
		const { order } = await (await checkout(storeId, product.id, 4, 'DE', rates.standard)).attempt
		// 50.00 reaches the threshold: free. 50.00 includes 19%: net 42.02, tax 7.98.
		expect(await stored(order.id)).toEqual({
			subtotalMinor: 5000,
			shippingMinor: 0,
			shippingName: 'Standard',
			taxMinor: 798,
			taxRateBasisPoints: 1900,
			taxIncluded: true,
			totalMinor: 5000,
		})
	})

	it('refuses no choice, another zone’s rate, another Store’s rate and a country not shipped to, placing nothing [R119]', async () => {
		const { storeId, product, rates } = await shop()
		const other = await shop()
		const cases: Array<[string, string | undefined, string]> = [
			['DE', undefined, 'shippingRate'],
			['DE', rates.ground, 'shippingRate'],
			['DE', other.rates.standard, 'shippingRate'],
			['DE', 'not-a-rate', 'shippingRate'],
			['JP', rates.standard, 'country'],
			// No rate for a country no zone holds: the country is what to change, not the rate.
			['JP', undefined, 'country'],
		]
		for (const [country, rateId, field] of cases) {
			const { guest, attempt } = await checkout(storeId, product.id, 1, country, rateId)
			await expect(attempt, `${country} ${rateId}`).rejects.toMatchObject({ status: 400, field })
			// The cart is kept for the buyer to correct.
			expect((await cartRepository(t.db, guest).summary()).lines).toHaveLength(1)
		}
		expect(await t.db.order.count({ where: { storeId } })).toBe(0)
		expect(await stockOf(t.db, product.variantId)).toBe(20)
	})

	it('stores exactly what the arithmetic gives, for any price, quantity, rate and tax setting [R119]', async () => {
		const { storeId, product, rates } = await shop()
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 500_000 }),
				fc.integer({ min: 1, max: 99 }),
				fc.integer({ min: 0, max: 10_000 }),
				fc.boolean(),
				fc.constantFrom('standard', 'express') as fc.Arbitrary<'standard' | 'express'>,
				async (priceMinor, quantity, basisPoints, pricesIncludeTax, rate) => {
					await t.db.productVariant.update({ where: { id: product.variantId }, data: { priceMinor, stock: 99 } })
					await t.db.taxRate.update({ where: { storeId_country: { storeId, country: 'DE' } }, data: { rateBasisPoints: basisPoints } })
					await t.db.store.update({ where: { id: storeId }, data: { pricesIncludeTax } })
					const { order } = await (await checkout(storeId, product.id, quantity, 'DE', rates[rate])).attempt
					const expected = orderTotals({
						subtotalMinor: priceMinor * quantity,
						shipping:
							rate === 'standard' ? { name: 'Standard', priceMinor: 495, freeOverMinor: 5000 } : { name: 'Express', priceMinor: 1200, freeOverMinor: null },
						taxRateBasisPoints: basisPoints,
						pricesIncludeTax,
					})
					const row = await stored(order.id)
					// No code was used: nothing off (the Order's discount columns are the discount tests').
					expect(expected.discountMinor).toBe(0)
					const { discountMinor: _none, ...charged } = expected
					expect(row).toMatchObject(charged)
					expect(row.totalMinor).toBe(row.subtotalMinor + row.shippingMinor + (row.taxIncluded ? 0 : row.taxMinor))
				},
			),
			{ numRuns: 15 },
		)
	})

	it('leaves a Store without shipping zones as it was: no shipping, no choice needed [R119]', async () => {
		const { id: storeId } = await t.db.store.create({ data: { handle: `ship-${randomUUID()}`, name: 'No zones' }, select: { id: true } })
		await offline(t.db, storeId)
		const product = await createProduct(t.db, storeId, { priceMinor: 1000 })
		const { order } = await (await checkout(storeId, product.id, 1, 'JP')).attempt
		expect(await stored(order.id)).toEqual({
			subtotalMinor: 1000,
			shippingMinor: 0,
			shippingName: null,
			taxMinor: 0,
			taxRateBasisPoints: 0,
			taxIncluded: false,
			totalMinor: 1000,
		})
	})
})
