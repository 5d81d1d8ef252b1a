/**
 * The shapes of an Order that checkout writes and every page, mail and payment reads, typed once:
 * where it goes, what it charges, and its lines as they are charged.
 */

/** Who an Order is for and where it goes: what checkout asks for and the Order keeps. */
export type OrderAddress = {
	email: string
	name: string
	addressLine1: string
	addressLine2: string
	city: string
	postalCode: string
	country: string
}

/** What an Order charges beyond its lines, in minor units of its currency. */
export type OrderCharges = {
	currency: string
	totalMinor: number
	shippingMinor: number
	shippingName: string | null
	taxMinor: number
	taxIncluded: boolean
	discountMinor: number
}

/** One line as it is shown and charged. */
export type OrderLineCharge = { title: string; variantTitle: string; unitPriceMinor: number; quantity: number }
