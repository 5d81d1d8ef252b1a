/**
 * Discount arithmetic against a calculation written apart from the store's (BigInt, straight from
 * the definitions): random carts × random discounts × prices with and without tax [R132]; and
 * the refusal reasons, which name no other code [R133].
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_TAX_BASIS_POINTS, chargeLines, orderTotals, splitInProportion } from '../rules/totals'
import { type DiscountRule, goodsDiscount, refusalOf } from './pricing'

/** n ÷ d rounded to the nearest integer, halves up, for non-negative BigInts. */
const nearest = (n: bigint, d: bigint) => (2n * n + d) / (2n * d)

/** The Order's figures as the definitions give them, computed without the store's code. */
function independent({
	lines,
	kind,
	value,
	shipping,
	rate,
	included,
}: {
	lines: Array<{ unitPriceMinor: number; quantity: number }>
	kind: 'percentage' | 'fixed' | 'free_shipping' | 'none'
	value: number
	shipping: { priceMinor: number; freeOverMinor: number | null } | null
	rate: number
	included: boolean
}) {
	const subtotal = lines.reduce((sum, line) => sum + BigInt(line.unitPriceMinor) * BigInt(line.quantity), 0n)
	let goodsOff = 0n
	if (kind === 'percentage') goodsOff = nearest(subtotal * BigInt(value), 10_000n)
	if (kind === 'fixed') goodsOff = BigInt(value)
	if (goodsOff > subtotal) goodsOff = subtotal
	const afterGoods = subtotal - goodsOff
	const shippingPrice =
		shipping === null ? 0n : shipping.freeOverMinor !== null && afterGoods >= BigInt(shipping.freeOverMinor) ? 0n : BigInt(shipping.priceMinor)
	const discount = goodsOff + (kind === 'free_shipping' ? shippingPrice : 0n)
	const taxed = subtotal + shippingPrice - discount
	const tax = rate === 0 ? 0n : included ? taxed - nearest(taxed * 10_000n, 10_000n + BigInt(rate)) : nearest(taxed * BigInt(rate), 10_000n)
	return { subtotal, shipping: shippingPrice, discount, tax, total: included ? taxed : taxed + tax }
}

const line = fc.record({
	title: fc.constantFrom('Mug', 'Shirt', 'Print'),
	unitPriceMinor: fc.integer({ min: 0, max: 200_000 }),
	quantity: fc.integer({ min: 1, max: 99 }),
})
const discount = fc.oneof(
	fc.record({ kind: fc.constant('percentage' as const), value: fc.integer({ min: 1, max: 10_000 }) }),
	fc.record({ kind: fc.constant('fixed' as const), value: fc.integer({ min: 1, max: 5_000_000 }) }),
	fc.record({ kind: fc.constant('free_shipping' as const), value: fc.constant(0) }),
	fc.record({ kind: fc.constant('none' as const), value: fc.constant(0) }),
)
const shippingChoice = fc.option(
	fc.record({
		name: fc.constant('Standard'),
		priceMinor: fc.integer({ min: 0, max: 50_000 }),
		freeOverMinor: fc.option(fc.integer({ min: 1, max: 500_000 }), { nil: null }),
	}),
	{ nil: null },
)

/** A random cart, code, shipping rate, tax rate and tax mode, priced by the store's code. */
const order = fc
	.tuple(fc.array(line, { minLength: 1, maxLength: 8 }), discount, shippingChoice, fc.integer({ min: 0, max: MAX_TAX_BASIS_POINTS }), fc.boolean())
	.map(([lines, { kind, value }, shipping, rate, included]) => {
		const subtotalMinor = lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0)
		const applied = kind === 'none' ? null : { goodsMinor: goodsDiscount({ kind, value }, subtotalMinor), freeShipping: kind === 'free_shipping' }
		const totals = orderTotals({ subtotalMinor, shipping, taxRateBasisPoints: rate, pricesIncludeTax: included, discount: applied })
		return { lines, kind, value, shipping, rate, included, subtotalMinor, totals }
	})

describe('discounts in an Order’s totals', () => {
	it('equal an independent calculation for random carts, discounts and tax modes, never below zero [R132]', () => {
		fc.assert(
			fc.property(order, ({ totals, subtotalMinor, ...input }) => {
				const expected = independent(input)
				expect([totals.shippingMinor, totals.discountMinor, totals.taxMinor, totals.totalMinor].map(BigInt)).toEqual([
					expected.shipping,
					expected.discount,
					expected.tax,
					expected.total,
				])
				expect(totals.totalMinor).toBeGreaterThanOrEqual(0)
				expect(totals.discountMinor).toBeLessThanOrEqual(subtotalMinor + totals.shippingMinor)
			}),
			{ numRuns: 2000 },
		)
	})

	it('asks the payment provider for lines that add up to the discounted total, none negative [R132]', () => {
		fc.assert(
			fc.property(order, ({ lines, kind, shipping, totals }) => {
				const charged = chargeLines({
					lines,
					shippingMinor: totals.shippingMinor,
					shippingName: shipping?.name ?? null,
					taxMinor: totals.taxMinor,
					taxIncluded: totals.taxIncluded,
					discountMinor: totals.discountMinor,
					discountKind: kind === 'none' ? null : kind,
				})
				expect(charged.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0)).toBe(totals.totalMinor)
				for (const l of charged) expect(Number.isSafeInteger(l.unitPriceMinor) && l.unitPriceMinor >= 0 && l.quantity >= 1).toBe(true)
			}),
			{ numRuns: 2000 },
		)
	})

	it('splits an amount over weights exactly, no part above its weight, past 2^53 in the products [R132]', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 99_999_999 }), { minLength: 1, maxLength: 10 }),
				fc.double({ min: 0, max: 1, noNaN: true }),
				(weights, share) => {
					const sum = weights.reduce((a, b) => a + b, 0)
					const amount = Math.floor(sum * share)
					const parts = splitInProportion(amount, weights)
					expect(parts.reduce((a, b) => a + b, 0)).toBe(sum === 0 ? 0 : amount)
					parts.forEach((part, index) => expect(part >= 0 && part <= weights[index]!).toBe(true))
				},
			),
		)
	})

	it('rounds a percentage to the nearest minor unit and caps a fixed amount at the goods [R132]', () => {
		expect(goodsDiscount({ kind: 'percentage', value: 1000 }, 1995)).toBe(200) // 199.5 → 200
		expect(goodsDiscount({ kind: 'percentage', value: 1250 }, 999)).toBe(125) // 124.875 → 125
		expect(goodsDiscount({ kind: 'percentage', value: 10_000 }, 4321)).toBe(4321)
		expect(goodsDiscount({ kind: 'fixed', value: 500 }, 300)).toBe(300)
		expect(goodsDiscount({ kind: 'fixed', value: 500 }, 0)).toBe(0)
		expect(goodsDiscount({ kind: 'free_shipping', value: 0 }, 5000)).toBe(0)
		// Tax included: 10.00 off a 119.00 cart at 19% leaves 109.00 gross, of which 17.40 is tax.
		const totals = orderTotals({
			subtotalMinor: 11_900,
			shipping: null,
			taxRateBasisPoints: 1900,
			pricesIncludeTax: true,
			discount: { goodsMinor: 1000, freeShipping: false },
		})
		expect(totals).toMatchObject({ discountMinor: 1000, taxMinor: 1740, totalMinor: 10_900 })
		// Tax added: the tax is on the discounted goods and shipping.
		const added = orderTotals({
			subtotalMinor: 10_000,
			shipping: { name: 'Standard', priceMinor: 500, freeOverMinor: null },
			taxRateBasisPoints: 2000,
			pricesIncludeTax: false,
			discount: { goodsMinor: 0, freeShipping: true },
		})
		expect(added).toMatchObject({ shippingMinor: 500, discountMinor: 500, taxMinor: 2000, totalMinor: 12_000 })
	})
})

describe('why a code does not apply', () => {
	const now = new Date('2026-12-01T12:00:00Z')
	const rule: DiscountRule = {
		kind: 'percentage',
		value: 1000,
		minimumSubtotalMinor: 5000,
		startsAt: new Date('2026-11-01T00:00:00Z'),
		endsAt: new Date('2026-12-31T00:00:00Z'),
		usageLimit: 10,
		usedCount: 3,
		active: true,
	}
	const cart = { subtotalMinor: 6000, now }

	it('names the one reason, and reads a switched-off or not-yet-started code as unknown [R133]', () => {
		expect(refusalOf(rule, cart)).toBeNull()
		expect(refusalOf(null, cart)).toBe('unknown')
		expect(refusalOf({ ...rule, active: false }, cart)).toBe('unknown')
		expect(refusalOf({ ...rule, startsAt: new Date('2026-12-02T00:00:00Z') }, cart)).toBe('unknown')
		expect(refusalOf({ ...rule, endsAt: now }, cart)).toBe('expired')
		expect(refusalOf(rule, { ...cart, subtotalMinor: 4999 })).toBe('below_minimum')
		expect(refusalOf({ ...rule, usedCount: 10 }, cart)).toBe('used_up')
	})
})
