import type { StoreScope } from '../data/scope'
import { DomainError } from '../errors.server'
import { recordProviderRef } from '../orders/orders.server'
import { type StripeSecrets, connectionSecrets } from './connections.server'
import { startOfflinePayment } from './providers/offline.server'
import { refundStripePayment, startStripeCheckout } from './providers/stripe.server'
import type { PaymentRequest, PaymentStart, RefundDone, RefundRequest } from './types'

export type { PaymentRequest, PaymentStart, RefundDone, RefundRequest }

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

/** Whether a refund of an Order paid through this provider is sent through the provider's API. */
export const refundsThroughProvider = (provider: string) => provider === 'stripe'

/**
 * Sends a refund through the Order's Connection [R117]. Only Stripe is called; for offline and
 * generic Connections the money goes back by hand, and the store only records it (null). A
 * provider that refuses or cannot be reached answers 502 with what it said: nothing was recorded.
 */
export async function refundPayment(scope: StoreScope, connection: { id: string; provider: string }, request: RefundRequest): Promise<RefundDone | null> {
	if (!refundsThroughProvider(connection.provider)) return null
	const secrets = await connectionSecrets<StripeSecrets>(scope, connection.id)
	if (!secrets) throw new DomainError(409, 'The Stripe Connection has no keys configured, so nothing was refunded.')
	const { paymentRef } = request
	if (!paymentRef) throw new DomainError(409, 'Stripe has not confirmed a card payment for this order yet, so there is nothing to refund.')
	try {
		return await refundStripePayment(secrets, { ...request, paymentRef })
	} catch (error) {
		const type = (error as { type?: unknown }).type
		if (typeof type !== 'string' || !type.startsWith('Stripe')) throw error
		throw new DomainError(
			502,
			type === 'StripeConnectionError'
				? 'Stripe could not be reached, so nothing was recorded. Try again: the same refund is never made twice.'
				: `Stripe refused the refund, so nothing was recorded: ${(error as Error).message}`,
		)
	}
}
