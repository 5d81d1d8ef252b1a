import { redirect } from 'react-router'
import { getConfig } from '../../config/env.server'
import type { Viewer } from '../../data/viewer'
import { repositoriesFor } from '../../repositories.server'
import { redirectWithFlash } from '../../security/flash.server'
import { log } from '../../log/logger.server'
import { chargeLines } from '../../rules/totals'
import { lineName } from '../../rules/variants'
import type { OrderAddress, OrderCharges, OrderLineCharge } from '../../rules/order-shape'

type PayableOrder = Pick<OrderAddress, 'email'> &
	OrderCharges & {
		id: string
		number: number
		discountKind: string | null
		connection: { id: string; provider: string }
		lines: OrderLineCharge[]
	}

/**
 * Checkout's last step and the confirmation page's "Pay now": start (or resume) the Order's
 * online payment and send the shopper to the provider's page (303), which returns to the
 * confirmation. If the provider cannot be reached the Order stays saved and the shopper lands
 * on its confirmation with `failure` shown, from where "Pay now" tries again.
 */
export async function redirectToPayment(
	viewer: Viewer,
	order: PayableOrder,
	{ confirmation, failure }: { confirmation: string; failure: string },
): Promise<never> {
	const appUrl = getConfig().appUrl
	let started
	try {
		started = await repositoriesFor(viewer).checkout.startPayment({
			order: { id: order.id, number: order.number, email: order.email, currency: order.currency, totalMinor: order.totalMinor },
			connection: order.connection,
			// A variant's line is named with it, as the buyer chose it: "Linen shirt (M / Blue)".
			lines: chargeLines({ ...order, lines: order.lines.map((line) => ({ ...line, title: lineName(line.title, line.variantTitle) })) }),
			urls: { success: `${appUrl}${confirmation}?paid=1`, cancel: `${appUrl}${confirmation}` },
		})
	} catch (error) {
		const { name, message, code } = error as { name?: string; message?: string; code?: string }
		log.error({ reason: { name, code, message: message?.slice(0, 200) } }, '[payment] could not be started')
		throw await redirectWithFlash(confirmation, failure)
	}
	throw redirect(started.redirectTo ?? confirmation, 303)
}
