import type { StoreScope } from '../data/scope'
import { recordProviderRef } from '../orders/orders.server'
import { type StripeSecrets, connectionSecrets } from './connections.server'
import { startOfflinePayment } from './providers/offline.server'
import { startStripeCheckout } from './providers/stripe.server'
import type { PaymentRequest, PaymentStart } from './types'

export type { PaymentRequest, PaymentStart }

/** Starts payment through the Order's Connection: the one interface over every provider. */
export async function startPayment(scope: StoreScope, connection: { id: string; provider: string }, request: PaymentRequest): Promise<PaymentStart> {
	// Offline, and a generic integration (bank transfer reconciled by signed events): nothing to call.
	if (connection.provider === 'offline' || connection.provider === 'generic') return startOfflinePayment()
	if (connection.provider === 'stripe') {
		const secrets = await connectionSecrets<StripeSecrets>(scope, connection.id)
		if (!secrets) throw new Error('The Stripe Connection has no keys configured')
		return startStripeCheckout(secrets, request)
	}
	throw new Error(`Unknown payment provider: ${connection.provider}`)
}

/**
 * Starts (or resumes: the provider's request is idempotent per Order) the online payment of one
 * of the viewer's Store's Orders, and records the provider's reference on the Order, which is
 * what later events must name to move it [R66].
 */
export async function startOrderPayment(
	scope: StoreScope,
	{
		order,
		connection,
		lines,
		urls,
	}: Omit<PaymentRequest, 'order'> & { order: Omit<PaymentRequest['order'], 'storeId'>; connection: { id: string; provider: string } },
) {
	const started = await startPayment(scope, connection, { order: { ...order, storeId: scope.storeId }, lines, urls })
	if (started.providerRef) await recordProviderRef(scope, { orderId: order.id, providerRef: started.providerRef })
	return started
}
