/**
 * The money arithmetic of an Order's totals, as properties over every amount and rate [R119]:
 * integers only, the parts adding up to the total exactly, tax within half a minor unit of the
 * exact figure, never negative, never shrinking as the amount grows.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_ORDER_TOTAL_MINOR } from './limits'
import { MAX_TAX_BASIS_POINTS, chargeLines, orderTotals, percentText, shippingCost, taxOf } from './totals'

const amount = fc.integer({ min: 0, max: MAX_ORDER_TOTAL_MINOR })
const rate = fc.integer({ min: 0, max: MAX_TAX_BASIS_POINTS })
const shipping = fc.option(
	fc.record({ name: fc.constant('Standard'), priceMinor: fc.integer({ min: 0, max: 1_000_000 }), freeOverMinor: fc.option(amount, { nil: null }) }),
	{ nil: null },
)

describe('order totals', () => {
	it('adds tax on top within half a minor unit of the exact figure, as an integer [R119]', () => {
		fc.assert(
			fc.property(amount, rate, (a, bp) => {
				const tax = taxOf(a, bp, false)
				expect(Number.isSafeInteger(tax)).toBe(true)
				expect(Math.abs(tax - (a * bp) / 10_000)).toBeLessThanOrEqual(0.5)
			}),
		)
	})

	it('splits a tax-inclusive amount into net and tax that add up to it exactly, the net within half a minor unit [R119]', () => {
		fc.assert(
			fc.property(amount, rate, (gross, bp) => {
				const tax = taxOf(gross, bp, true)
				const net = gross - tax
				expect(Number.isSafeInteger(tax) && tax >= 0 && net >= 0).toBe(true)
				expect(Math.abs(net - (gross * 10_000) / (10_000 + bp))).toBeLessThanOrEqual(0.5)
			}),
		)
	})

	it('never lowers the tax when the amount grows [R119]', () => {
		fc.assert(
			fc.property(amount, amount, rate, fc.boolean(), (a, b, bp, included) => {
				const [low, high] = a <= b ? [a, b] : [b, a]
				expect(taxOf(low, bp, included)).toBeLessThanOrEqual(taxOf(high, bp, included))
			}),
		)
	})

	it('makes the total the subtotal plus shipping, plus tax unless prices include it [R119]', () => {
		fc.assert(
			fc.property(amount, shipping, rate, fc.boolean(), (subtotal, choice, bp, included) => {
				const totals = orderTotals({ subtotalMinor: subtotal, shipping: choice, taxRateBasisPoints: bp, pricesIncludeTax: included })
				expect(totals.shippingMinor).toBe(shippingCost(choice, subtotal))
				expect(totals.taxMinor).toBe(taxOf(subtotal + totals.shippingMinor, bp, included))
				expect(totals.totalMinor).toBe(subtotal + totals.shippingMinor + (included ? 0 : totals.taxMinor))
				for (const value of Object.values(totals)) if (typeof value === 'number') expect(Number.isSafeInteger(value) && value >= 0).toBe(true)
			}),
		)
	})

	it('asks the payment provider for lines that add up to the total exactly [R119]', () => {
		const line = fc.record({ title: fc.constant('Item'), unitPriceMinor: fc.integer({ min: 1, max: 100_000 }), quantity: fc.integer({ min: 1, max: 99 }) })
		fc.assert(
			fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), shipping, rate, fc.boolean(), (lines, choice, bp, included) => {
				const subtotal = lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0)
				const totals = orderTotals({ subtotalMinor: subtotal, shipping: choice, taxRateBasisPoints: bp, pricesIncludeTax: included })
				const charged = chargeLines({ lines, shippingName: choice?.name ?? null, ...totals })
				expect(charged.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0)).toBe(totals.totalMinor)
			}),
		)
	})

	it('ships free at or over the threshold and at the flat price under it [R119]', () => {
		const rate = { name: 'Standard', priceMinor: 495, freeOverMinor: 5000 }
		expect(shippingCost(rate, 4999)).toBe(495)
		expect(shippingCost(rate, 5000)).toBe(0)
		expect(shippingCost({ ...rate, freeOverMinor: null }, 99_999_999)).toBe(495)
		expect(shippingCost(null, 100)).toBe(0)
	})

	it('rounds halves away from zero, on known figures [R119]', () => {
		// 10.05 at 10% is 1.005: 1.01. 1.00 at 12.5% is 0.125: 0.13.
		expect(taxOf(1005, 1000, false)).toBe(101)
		expect(taxOf(100, 1250, false)).toBe(13)
		// 119.00 including 19%: 100.00 net, 19.00 tax.
		expect(taxOf(11_900, 1900, true)).toBe(1900)
		expect(percentText(1950)).toBe('19.5%')
		expect(
			orderTotals({ subtotalMinor: 4000, shipping: { name: 'Std', priceMinor: 500, freeOverMinor: null }, taxRateBasisPoints: 2000, pricesIncludeTax: false }),
		).toEqual({
			subtotalMinor: 4000,
			shippingMinor: 500,
			taxMinor: 900,
			taxRateBasisPoints: 2000,
			taxIncluded: false,
			discountMinor: 0,
			totalMinor: 5400,
		})
	})
})
