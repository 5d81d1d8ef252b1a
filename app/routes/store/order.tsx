import { data, Form, redirect } from 'react-router'
import type { Route } from './+types/order'
import { getViewer } from '../../auth/guards.server'
import { getConfig } from '../../config/env.server'
import { getDb } from '../../data/db.server'
import { repositoriesFor } from '../../data/repositories.server'
import { recordProviderRef } from '../../orders/orders.server'
import { startPayment } from '../../payments/payments.server'
import { formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { OrderDetails } from '../../ui/order-details'
import { z } from 'zod'

export const meta = ({ data: order }: Route.MetaArgs) => [{ title: order ? `Order #${order.number}` : 'Order' }]

const notFound = () => data({ message: 'There is no order at this address.' }, { status: 404 })

/**
 * The confirmation page (issue 6.5): reachable only with the Order's token (>= 128 bits),
 * never by number or email; the token is the guest's proof of ownership.
 */
async function orderFor(args: Route.LoaderArgs | Route.ActionArgs) {
	const viewer = await getViewer(args)
	const order = await repositoriesFor(viewer).orders.byToken(args.params.token)
	if (!order) throw notFound()
	return order
}

export async function loader(args: Route.LoaderArgs) {
	const order = await orderFor(args)
	const { id: _id, connection, ...rest } = order
	return {
		...rest,
		createdAt: order.createdAt.toISOString(),
		connection: { provider: connection.provider, displayName: connection.displayName },
		justPaid: new URL(args.request.url).searchParams.get('paid') === '1',
	}
}

const payForm = formSchema({ intent: z.literal('pay', 'Unknown action') })

/** "Pay now" for a provider payment that did not start or was abandoned (same Session: idempotent). */
export async function action(args: Route.ActionArgs) {
	const order = await orderFor(args)
	const form = await parseForm(args.request, payForm)
	if (!form.ok) return data(form, { status: 400 })
	const confirmation = `/orders/${args.params.token}`
	if (order.status !== 'awaiting_payment' || order.connection.provider !== 'stripe') {
		throw await redirectWithFlash(confirmation, 'This order needs no online payment.')
	}
	const viewer = await getViewer(args)
	const appUrl = getConfig().appUrl
	const db = getDb()
	try {
		const started = await startPayment(db, order.connection, {
			order: { id: order.id, storeId: viewer.storeId, number: order.number, email: order.email, currency: order.currency, totalMinor: order.totalMinor },
			lines: order.lines,
			urls: { success: `${appUrl}${confirmation}?paid=1`, cancel: `${appUrl}${confirmation}` },
		})
		if (started.providerRef) await recordProviderRef(db, { storeId: viewer.storeId, orderId: order.id, providerRef: started.providerRef })
		throw redirect(started.redirectTo ?? confirmation, 303)
	} catch (error) {
		if (error instanceof Response) throw error
		console.error('[order] payment could not be started', (error as Error).name)
		throw await redirectWithFlash(confirmation, 'The payment could not be started. Please try again in a moment.')
	}
}

export default function OrderConfirmation({ loaderData: order }: Route.ComponentProps) {
	const payOnline = order.status === 'awaiting_payment' && order.connection.provider === 'stripe'
	return (
		<section>
			<h1>Thank you! Order #{order.number}</h1>
			<p>
				A confirmation of your order to {order.email}. Keep this page’s address: it is the link to your order.
			</p>
			{order.justPaid && order.status === 'awaiting_payment' ? (
				<p className="hint">We are waiting for the payment provider to confirm your payment.</p>
			) : null}
			<OrderDetails order={order} />
			{payOnline ? (
				<Form method="post">
					<input type="hidden" name="intent" value="pay" />
					<button type="submit">Pay now</button>
				</Form>
			) : null}
		</section>
	)
}
