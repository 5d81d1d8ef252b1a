/**
 * What a discount code takes off, and whether it applies, as pure functions of the code and the
 * cart: shared by checkout (inside its transaction) and Store Admin's form, so both read the same
 * rules [R132, R133]. Money is integer minor units; a percentage is hundredths of a percent.
 */

export const DISCOUNT_KINDS = ['percentage', 'fixed', 'free_shipping'] as const
export type DiscountKind = (typeof DISCOUNT_KINDS)[number]
export const isDiscountKind = (value: string): value is DiscountKind => (DISCOUNT_KINDS as readonly string[]).includes(value)

/** A code as typed or kept: letters, digits, dash and underscore, 3 to 32 of them. */
export const DISCOUNT_CODE = /^[A-Za-z0-9_-]{3,32}$/
/** How codes are compared and kept: case does not matter. */
export const normalizeCode = (code: string) => code.trim().toUpperCase()

export type DiscountRule = {
	kind: DiscountKind
	/** Hundredths of a percent (percentage), minor units (fixed), 0 (free shipping). */
	value: number
	minimumSubtotalMinor: number | null
	startsAt: Date | null
	endsAt: Date | null
	usageLimit: number | null
	usedCount: number
	active: boolean
}

/**
 * What the code takes off the goods, in minor units: a percentage rounded to the nearest minor
 * unit (halves away from zero), a fixed amount, never more than the goods cost, never below zero.
 * Free shipping takes nothing off the goods (checkout waives the shipping: app/rules/totals.ts).
 */
export function goodsDiscount(rule: Pick<DiscountRule, 'kind' | 'value'>, subtotalMinor: number) {
	if (subtotalMinor <= 0 || rule.value <= 0) return 0
	const off = rule.kind === 'percentage' ? Math.floor((2 * subtotalMinor * rule.value + 10_000) / 20_000) : rule.kind === 'fixed' ? rule.value : 0
	return Math.min(off, subtotalMinor)
}

/** Why a code does not apply to this cart now, in words that name no other code; null when it does. */
export function refusalOf(rule: DiscountRule | null, { subtotalMinor, now }: { subtotalMinor: number; now: Date }): DiscountRefusal | null {
	// A code switched off or not started yet reads as unknown: a planned promotion stays unannounced.
	if (!rule || !rule.active || (rule.startsAt && now < rule.startsAt)) return 'unknown'
	if (rule.endsAt && now >= rule.endsAt) return 'expired'
	if (rule.minimumSubtotalMinor !== null && subtotalMinor < rule.minimumSubtotalMinor) return 'below_minimum'
	if (rule.usageLimit !== null && rule.usedCount >= rule.usageLimit) return 'used_up'
	return null
}

export type DiscountRefusal = 'unknown' | 'expired' | 'below_minimum' | 'used_up' | 'already_used'

export const REFUSAL_MESSAGES: Record<DiscountRefusal, string> = {
	unknown: 'That discount code is not valid. Check it, or leave the field empty.',
	expired: 'That discount code has expired.',
	below_minimum: 'That discount code needs a larger order: add more to your cart to use it.',
	used_up: 'That discount code has been used up. Your cart is as it was: leave the field empty to order without it.',
	already_used: 'That discount code can be used once per customer, and it has been used with this account or email.',
}
