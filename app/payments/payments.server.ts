import type { Db } from '../data/db.server'
import { type StripeSecrets, connectionSecrets } from './connections.server'
import { startOfflinePayment } from './providers/offline.server'
import { startStripeCheckout } from './providers/stripe.server'

export type PaymentRequest = {
	order: { id: string; storeId: string; number: number; email: string; currency: string; totalMinor: number }
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
	urls: { success: string; cancel: string }
}

/** Where to send the shopper next (a provider's page) and the provider's object id. */
export type PaymentStart = { providerRef: string | null; redirectTo: string | null }

/** Starts payment through the Order's Connection: the one interface over every provider. */
export async function startPayment(
	db: Db,
	connection: { id: string; provider: string },
	request: PaymentRequest,
): Promise<PaymentStart> {
	// Offline, and a generic integration (bank transfer reconciled by signed events): nothing to call.
	if (connection.provider === 'offline' || connection.provider === 'generic') return startOfflinePayment()
	if (connection.provider === 'stripe') {
		const secrets = await connectionSecrets<StripeSecrets>(db, request.order.storeId, connection.id)
		if (!secrets) throw new Error('The Stripe Connection has no keys configured')
		return startStripeCheckout(secrets, request)
	}
	throw new Error(`Unknown payment provider: ${connection.provider}`)
}
