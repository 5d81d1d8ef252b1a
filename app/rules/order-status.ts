/**
 * Order states and the only transitions between them, in one table (docs/architecture.md). Anything
 * not listed is refused. `refunded` means fully refunded; partial refunds are recorded on
 * the Order without a state change.
 */
export const ORDER_STATUSES = ['awaiting_payment', 'paid', 'fulfilled', 'cancelled', 'refunded'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
	// Paid by the provider (or marked paid by an admin for offline payment), or cancelled unpaid.
	awaiting_payment: ['paid', 'cancelled'],
	// Shipped, or cancelled and refunded before shipping, or refunded.
	paid: ['fulfilled', 'refunded', 'cancelled'],
	// A shipped order can only be refunded (returns).
	fulfilled: ['refunded'],
	cancelled: [],
	refunded: [],
}

export function canTransition(from: string, to: string): boolean {
	return isOrderStatus(from) && isOrderStatus(to) && ORDER_TRANSITIONS[from].includes(to)
}

export function isOrderStatus(value: string): value is OrderStatus {
	return (ORDER_STATUSES as readonly string[]).includes(value)
}

/** Words for shoppers and operators. */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
	awaiting_payment: 'Awaiting payment',
	paid: 'Paid',
	fulfilled: 'Shipped',
	cancelled: 'Cancelled',
	refunded: 'Refunded',
}

/** What an Order with nothing to pay says where a payment would be: its page, its mail, its timeline [R140]. */
export const NO_PAYMENT_DUE = 'No payment due: the discount covers the whole order.'
