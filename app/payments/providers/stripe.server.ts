import type Stripe from 'stripe'
import { onFirstUse } from '../../config/optional-packages.server'
import type { StripeSecrets } from '../connections.server'
import type { PaymentRequest, PaymentStart, RefundDone, RefundRequest } from '../types'

/** The official SDK, loaded when a Stripe Connection is used (not carried by a store without one). */
export const stripeSdk = onFirstUse<typeof Stripe>('stripe')

/**
 * Stripe through the official SDK (the only module that imports it). `apiBase` points the
 * SDK at a Stripe-compatible stand-in (tests, STRIPE_API_BASE) via its host/port/protocol.
 */
export function stripeClient(secrets: StripeSecrets) {
	const config: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 15_000, telemetry: false }
	if (secrets.apiBase) {
		const url = new URL(secrets.apiBase)
		config.host = url.hostname
		config.protocol = url.protocol === 'http:' ? 'http' : 'https'
		config.port = Number(url.port || (url.protocol === 'http:' ? 80 : 443))
	}
	const StripeClient = stripeSdk()
	return new StripeClient(secrets.secretKey, config)
}

/** A Checkout Session for the Order, created once per Order whatever the retries (idempotency key). */
export async function startStripeCheckout(secrets: StripeSecrets, request: PaymentRequest): Promise<PaymentStart> {
	const { order, lines, urls } = request
	const metadata = { orderId: order.id, storeId: order.storeId, orderNumber: String(order.number) }
	const session = await stripeClient(secrets).checkout.sessions.create(
		{
			mode: 'payment',
			client_reference_id: order.id,
			customer_email: order.email,
			line_items: lines.map((line) => ({
				quantity: line.quantity,
				price_data: {
					currency: order.currency.toLowerCase(),
					unit_amount: line.unitPriceMinor,
					product_data: { name: line.title },
				},
			})),
			metadata,
			payment_intent_data: { metadata },
			success_url: urls.success,
			cancel_url: urls.cancel,
		},
		{ idempotencyKey: `order-${order.id}` },
	)
	if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL')
	return { providerRef: session.id, redirectTo: session.url }
}

/**
 * Refunds part or all of a PaymentIntent. The idempotency key names the Order and what was
 * refunded of it before: the same form sent twice (a double click, a retry after a timeout)
 * refunds once at Stripe, whatever reached it.
 */
export async function refundStripePayment(secrets: StripeSecrets, request: RefundRequest & { paymentRef: string }): Promise<RefundDone> {
	const { order, paymentRef, amountMinor, refundedBefore } = request
	const refund = await stripeClient(secrets).refunds.create(
		{
			payment_intent: paymentRef,
			amount: amountMinor,
			metadata: { orderId: order.id, storeId: order.storeId, orderNumber: String(order.number) },
		},
		{ idempotencyKey: `refund-${order.id}-${refundedBefore}` },
	)
	return { providerRefundRef: refund.id }
}
