import { data, Form } from 'react-router'
import type { Route } from './+types/order'
import { connectionForBuyer } from '../../rules/payment-instructions'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { OrderDetails } from '../../ui/order-details'
import { sendingConfigured } from '../../email/outbox.server'
import { redirectToPayment } from './payment.server'
import { z } from 'zod'

export const meta = ({ data: order }: Route.MetaArgs) => [{ title: order ? `Order #${order.number}` : 'Order' }]

const notFound = () => data({ message: 'There is no order at this address.' }, { status: 404 })

/**
 * The confirmation page: reachable only with the Order's token (>= 128 bits),
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
		connection: connectionForBuyer(connection, order.number),
		justPaid: new URL(args.request.url).searchParams.get('paid') === '1',
		mailSent: sendingConfigured(),
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
	return redirectToPayment(await getViewer(args), order, { confirmation, failure: 'The payment could not be started. Please try again in a moment.' })
}

export default function OrderConfirmation({ loaderData: order }: Route.ComponentProps) {
	const payOnline = order.status === 'awaiting_payment' && order.connection.provider === 'stripe'
	return (
		<section>
			<h1>Thank you! Order #{order.number}</h1>
			<p data-testid="order-mail-note">
				{order.mailSent
					? `A confirmation with this page’s link is on its way to ${order.email}.`
					: 'This store sends no email: keep this page’s address, it is the only link to your order.'}
			</p>
			{order.justPaid && order.status === 'awaiting_payment' ? <p className="hint">We are waiting for the payment provider to confirm your payment.</p> : null}
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
