/**
 * An Order's totals from its goods, the shipping rate chosen and its country's tax rate, in
 * integer minor units (docs/decisions/045-shipping-and-taxes.md). Shared by checkout (the
 * amounts an Order records) and the checkout page (what it shows before the Order is placed):
 * both get the same numbers from the same code.
 *
 * Rounding: tax is computed once per Order, on goods and shipping together, and rounded to the
 * nearest minor unit, halves away from zero. With prices that include tax, the tax is the part of
 * the gross that is not net: gross − round(gross ÷ (1 + rate)), so net + tax is the gross exactly.
 *
 * A discount comes off before tax [R132]: what it takes off the goods lowers the amount taxed
 * (and the goods a free-shipping threshold looks at); a free-shipping code waives the shipping.
 * The Order keeps the shipping as priced and the discount as the sum of both parts, so
 * total = subtotal + shipping − discount (+ tax when it is added).
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
	/** What the discount took off: the goods' part plus the shipping it waived. */
	discountMinor: number
	totalMinor: number
}

/** A code's effect on one cart: its part of the goods (already capped at them), and free shipping. */
export type AppliedDiscount = { goodsMinor: number; freeShipping: boolean }

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
	discount = null,
}: {
	subtotalMinor: number
	shipping: ShippingChoice | null
	taxRateBasisPoints: number
	pricesIncludeTax: boolean
	discount?: AppliedDiscount | null
}): OrderTotals {
	const goodsOff = Math.max(0, Math.min(discount?.goodsMinor ?? 0, subtotalMinor))
	const shippingMinor = shippingCost(shipping, subtotalMinor - goodsOff)
	const discountMinor = goodsOff + (discount?.freeShipping ? shippingMinor : 0)
	const taxed = subtotalMinor + shippingMinor - discountMinor
	const taxMinor = taxOf(taxed, taxRateBasisPoints, pricesIncludeTax)
	return {
		subtotalMinor,
		shippingMinor,
		taxMinor,
		taxRateBasisPoints,
		taxIncluded: pricesIncludeTax,
		discountMinor,
		totalMinor: pricesIncludeTax ? taxed : taxed + taxMinor,
	}
}

/**
 * `amount` split over `weights` in proportion, in whole units that add up to `amount` exactly:
 * each gets the floor of its share, and the units left go to the largest remainders (the first
 * of equal ones). No part exceeds its weight while `amount` is at most their sum.
 */
export function splitInProportion(amount: number, weights: number[]) {
	const total = weights.reduce((sum, weight) => sum + weight, 0)
	if (total === 0 || amount === 0) return weights.map(() => 0)
	// In BigInt: an Order's amount times a line's may pass 2^53.
	const shares = weights.map((weight, index) => ({ index, exact: BigInt(amount) * BigInt(weight) }))
	const parts = shares.map(({ exact }) => Number(exact / BigInt(total)))
	let left = amount - parts.reduce((sum, part) => sum + part, 0)
	const byRemainder = shares
		.map(({ index, exact }) => ({ index, remainder: exact % BigInt(total) }))
		.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1))
	for (const { index } of byRemainder) {
		if (left === 0) break
		parts[index]! += 1
		left -= 1
	}
	return parts
}

/**
 * What a payment provider is asked to charge, line by line: the goods, then shipping and a tax
 * added on top as lines of their own, so the lines add up to the Order's total [R119]. A provider
 * takes no negative line, so a discount is taken off the lines it applies to [R132]: a
 * free-shipping code off the shipping line; any other off the goods, each line's share in
 * proportion to its amount, written as one line per item ("2 × Mug") with its amount after
 * the discount. A line the discount leaves at nothing is left out.
 */
export function chargeLines(order: {
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
	shippingMinor: number
	shippingName: string | null
	taxMinor: number
	taxIncluded: boolean
	discountMinor?: number
	discountKind?: string | null
}) {
	const discountMinor = order.discountMinor ?? 0
	const shippingOff = order.discountKind === 'free_shipping' ? Math.min(discountMinor, order.shippingMinor) : 0
	const goodsOff = discountMinor - shippingOff
	const goods =
		goodsOff === 0
			? order.lines
			: (() => {
					const shares = splitInProportion(
						goodsOff,
						order.lines.map((line) => line.unitPriceMinor * line.quantity),
					)
					return order.lines
						.map((line, index) => ({
							title: line.quantity === 1 ? line.title : `${line.quantity} × ${line.title}`,
							unitPriceMinor: line.unitPriceMinor * line.quantity - shares[index]!,
							quantity: 1,
						}))
						.filter((line) => line.unitPriceMinor > 0)
				})()
	const shipping = order.shippingMinor - shippingOff
	return [
		...goods,
		...(shipping > 0 ? [{ title: `Shipping: ${order.shippingName ?? 'shipping'}`, unitPriceMinor: shipping, quantity: 1 }] : []),
		...(!order.taxIncluded && order.taxMinor > 0 ? [{ title: 'Tax', unitPriceMinor: order.taxMinor, quantity: 1 }] : []),
	]
}

/** A rate as people write it: 19 → "19%", 1950 basis points → "19.5%". */
export function percentText(basisPoints: number) {
	return `${(basisPoints / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`
}
