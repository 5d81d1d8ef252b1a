import { lineName } from '../rules/variants'
import { instructionLines, readInstructions } from '../rules/payment-instructions'
import { percentText } from '../rules/totals'
import { getConfig } from '../config/env.server'
import type { Db } from '../data/db.server'
import { enqueueMail, type MailKind } from '../email/outbox.server'
import { plainMail } from '../email/render'
import type { Renderer } from '../email/worker.server'
import { formatMoney } from '../rules/money'
import { NO_PAYMENT_DUE } from '../rules/order-status'
import { ORDER_LINE_ORDER } from './listing-order'
import { existingOrderToken } from './token.server'

type Tx = Parameters<typeof enqueueMail>[0]

/** The mail a change of an Order causes, written in that change's transaction (the outbox). */
export function orderMail(
	tx: Tx,
	order: { storeId: string; id: string; email: string },
	event: 'placed' | 'paid' | 'fulfilled' | 'cancelled' | { refundedMinor: number },
) {
	const kind: MailKind = typeof event === 'string' ? `order-${event}` : 'order-refunded'
	const key = typeof event === 'string' ? event : `refunded:${event.refundedMinor}`
	return enqueueMail(tx, { storeId: order.storeId, kind, subjectId: order.id, toAddress: order.email, dedupeKey: `order:${order.id}:${key}` })
}

const HEADLINES: Record<string, (number: number) => string> = {
	'order-placed': (n) => `Your order #${n}`,
	'order-paid': (n) => `Order #${n} is paid`,
	'order-fulfilled': (n) => `Order #${n} is on its way`,
	'order-cancelled': (n) => `Order #${n} was cancelled`,
	'order-refunded': (n) => `A refund for order #${n}`,
}

/** Renders an Order's mail when it is sent, from the Order as it is then: its lines, total and link. */
export function orderMailRenderer(db: Db, kind: keyof typeof HEADLINES): Renderer {
	return async ({ storeId, subjectId }) => {
		const order = await db.order.findFirst({
			where: { id: subjectId, storeId },
			select: {
				id: true,
				number: true,
				tokenHash: true,
				currency: true,
				totalMinor: true,
				refundedMinor: true,
				shippingMinor: true,
				shippingName: true,
				taxMinor: true,
				taxRateBasisPoints: true,
				taxIncluded: true,
				discountCode: true,
				discountMinor: true,
				status: true,
				carrier: true,
				trackingNumber: true,
				lines: { select: { title: true, variantTitle: true, quantity: true, lineTotalMinor: true }, orderBy: ORDER_LINE_ORDER },
				connection: { select: { provider: true, paymentInstructions: true } },
				store: { select: { name: true, locale: true } },
			},
		})
		if (!order) return null
		const money = (minor: number) => formatMoney(minor, order.currency, order.store.locale)
		const link = { href: `${getConfig().appUrl}/orders/${existingOrderToken(order.id, order.tokenHash)}`, label: 'Your order' }
		const lines = [
			...order.lines.map((line) => `${line.quantity} × ${lineName(line.title, line.variantTitle)}: ${money(line.lineTotalMinor)}`),
			...(order.shippingName ? [`Shipping (${order.shippingName}): ${order.shippingMinor === 0 ? 'free' : money(order.shippingMinor)}`] : []),
			...(order.discountMinor > 0 ? [`Discount${order.discountCode ? ` (${order.discountCode})` : ''}: −${money(order.discountMinor)}`] : []),
			...(order.taxMinor > 0 ? [`${order.taxIncluded ? 'Includes tax' : 'Tax'} (${percentText(order.taxRateBasisPoints)}): ${money(order.taxMinor)}`] : []),
		].join('\n')
		const body: Record<string, string[]> = {
			'order-placed': [
				`Thank you for your order #${order.number} at ${order.store.name}.`,
				`${lines}\nTotal: ${money(order.totalMinor)}`,
				order.totalMinor === 0
					? NO_PAYMENT_DUE
					: order.connection && order.connection.provider !== 'stripe'
						? order.status === 'awaiting_payment'
							? instructionLines(readInstructions(order.connection.paymentInstructions), order.number).join('\n')
							: 'Payment: received.'
						: order.status === 'awaiting_payment'
							? 'Payment: open your order to pay online if you have not finished paying.'
							: 'Payment: received.',
				'Keep this mail: the link below is the way back to your order.',
			],
			'order-paid': [`We received the payment for order #${order.number}: ${money(order.totalMinor)}.`],
			'order-fulfilled': [
				`Order #${order.number} has been sent.`,
				...(order.trackingNumber ? [`${order.carrier ? `${order.carrier} tracking` : 'Tracking'} number: ${order.trackingNumber}`] : []),
			],
			'order-cancelled': [`Order #${order.number} was cancelled. Nothing more will be charged for it.`],
			'order-refunded': [`${money(order.refundedMinor)} of order #${order.number} has been refunded${order.status === 'refunded' ? ': the whole order' : ''}.`],
		}
		return plainMail({ subject: `${HEADLINES[kind]!(order.number)} — ${order.store.name}`, paragraphs: body[kind] ?? [], link })
	}
}
