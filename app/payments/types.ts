/** What every payment provider is given and gives back: the one interface over them all. */
export type PaymentRequest = {
	order: { id: string; storeId: string; number: number; email: string; currency: string; totalMinor: number }
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
	urls: { success: string; cancel: string }
}

/** Where to send the shopper next (a provider's page) and the provider's object id. */
export type PaymentStart = { providerRef: string | null; redirectTo: string | null }
