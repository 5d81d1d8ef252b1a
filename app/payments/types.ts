/** What every payment provider is given and gives back: the one interface over them all. */
export type PaymentRequest = {
	order: { id: string; storeId: string; number: number; email: string; currency: string; totalMinor: number }
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
	urls: { success: string; cancel: string }
}

/** Where to send the shopper next (a provider's page) and the provider's object id. */
export type PaymentStart = { providerRef: string | null; redirectTo: string | null }

/**
 * A refund sent to the provider: `paymentRef` is the provider's payment (a PaymentIntent),
 * `refundedBefore` what the Order had refunded when the request was made (minor units).
 */
export type RefundRequest = {
	order: { id: string; storeId: string; number: number }
	paymentRef: string | null
	amountMinor: number
	refundedBefore: number
}

/** The provider's id of the refund it made. */
export type RefundDone = { providerRefundRef: string }
