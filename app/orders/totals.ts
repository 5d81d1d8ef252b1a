/**
 * An Order's totals from its goods, the shipping rate chosen and its country's tax rate, in
 * integer minor units (docs/decisions/045-shipping-and-taxes.md). Shared by checkout (the
 * amounts an Order records) and the checkout page (what it shows before the Order is placed):
 * both get the same numbers from the same code.
 *
 * Rounding: tax is computed once per Order, on goods and shipping together, and rounded to the
 * nearest minor unit, halves away from zero. With prices that include tax, the tax is the part of
 * the gross that is not net: gross − round(gross ÷ (1 + rate)), so net + tax is the gross exactly.
 */

/** The most a tax rate may be, in hundredths of a percent (100%). */
export const MAX_TAX_BASIS_POINTS = 10_000

export type ShippingChoice = { name: string; priceMinor: number; freeOverMinor: number | null }

export type OrderTotals = {
	subtotalMinor: number
	shippingMinor: number
	taxMinor: number
	taxRateBasisPoints: number
	taxIncluded: boolean
	totalMinor: number
}

/** a ÷ b rounded to the nearest integer, halves away from zero, for non-negative integers. */
function divideRounded(a: number, b: number) {
	return Math.floor((2 * a + b) / (2 * b))
}

/** The tax in `amountMinor` (included) or on it (added), at `basisPoints`. */
export function taxOf(amountMinor: number, basisPoints: number, included: boolean) {
	if (basisPoints === 0 || amountMinor === 0) return 0
	if (!included) return divideRounded(amountMinor * basisPoints, 10_000)
	return amountMinor - divideRounded(amountMinor * 10_000, 10_000 + basisPoints)
}

/** What shipping costs for goods of `subtotalMinor`: free at or over the rate's threshold. */
export function shippingCost(choice: ShippingChoice | null, subtotalMinor: number) {
	if (!choice) return 0
	return choice.freeOverMinor !== null && subtotalMinor >= choice.freeOverMinor ? 0 : choice.priceMinor
}

export function orderTotals({
	subtotalMinor,
	shipping,
	taxRateBasisPoints,
	pricesIncludeTax,
}: {
	subtotalMinor: number
	shipping: ShippingChoice | null
	taxRateBasisPoints: number
	pricesIncludeTax: boolean
}): OrderTotals {
	const shippingMinor = shippingCost(shipping, subtotalMinor)
	const taxed = subtotalMinor + shippingMinor
	const taxMinor = taxOf(taxed, taxRateBasisPoints, pricesIncludeTax)
	return {
		subtotalMinor,
		shippingMinor,
		taxMinor,
		taxRateBasisPoints,
		taxIncluded: pricesIncludeTax,
		totalMinor: pricesIncludeTax ? taxed : taxed + taxMinor,
	}
}

/**
 * What a payment provider is asked to charge, line by line: the goods, then shipping and a tax
 * added on top as lines of their own, so the lines add up to the Order's total [R119].
 */
export function chargeLines(order: {
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
	shippingMinor: number
	shippingName: string | null
	taxMinor: number
	taxIncluded: boolean
}) {
	return [
		...order.lines,
		...(order.shippingMinor > 0 ? [{ title: `Shipping: ${order.shippingName ?? 'shipping'}`, unitPriceMinor: order.shippingMinor, quantity: 1 }] : []),
		...(!order.taxIncluded && order.taxMinor > 0 ? [{ title: 'Tax', unitPriceMinor: order.taxMinor, quantity: 1 }] : []),
	]
}

/** A rate as people write it: 19 → "19%", 1950 basis points → "19.5%". */
export function percentText(basisPoints: number) {
	return `${(basisPoints / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`
}
