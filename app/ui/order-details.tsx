import { ORDER_STATUS_LABELS, type OrderStatus } from '../rules/order-status'
import { Price } from './money-format'
import { percentText } from '../rules/totals'
import type { OrderAddress, OrderCharges, OrderLineCharge } from '../rules/order-shape'

export type OrderView = OrderAddress &
	Omit<OrderCharges, 'discountMinor'> & {
		number: number
		status: string
		subtotalMinor: number
		taxRateBasisPoints: number
		discountCode?: string | null
		discountMinor?: number
		refundedMinor: number
		paymentNote: string | null
		createdAt: string
		shippedAt?: Date | string | null
		carrier?: string | null
		trackingNumber?: string | null
		connection: { provider: string; displayName: string; instructions?: string[] }
		lines: Array<OrderLineCharge & { sku?: string | null; lineTotalMinor: number }>
	}

export function statusLabel(status: string) {
	return ORDER_STATUS_LABELS[status as OrderStatus] ?? status
}

/** An Order as its owner sees it: lines, totals, address, status and how to pay. */
export function OrderDetails({
	order,
	showSku = false,
}: {
	order: OrderView
	/** Store Admin sees what was picked by its SKU; shoppers do not. */ showSku?: boolean
}) {
	return (
		<div className="order-details">
			<p>
				Status: <strong data-testid="order-status">{statusLabel(order.status)}</strong> · placed {order.createdAt.slice(0, 10)}
			</p>
			{order.paymentNote ? <p className="hint">{order.paymentNote}</p> : null}
			{order.shippedAt ? (
				<p data-testid="order-shipment">
					Shipped {(typeof order.shippedAt === 'string' ? order.shippedAt : order.shippedAt.toISOString()).slice(0, 10)}
					{order.carrier ? ` with ${order.carrier}` : ''}
					{order.trackingNumber ? (
						<>
							{' '}
							· tracking number <code>{order.trackingNumber}</code>
						</>
					) : null}
				</p>
			) : null}
			<table className="data-table">
				<thead>
					<tr>
						<th>Item</th>
						<th>Price</th>
						<th>Qty</th>
						<th>Total</th>
					</tr>
				</thead>
				<tbody>
					{order.lines.map((line, index) => (
						<tr key={index}>
							<td data-label="Item">
								{line.title}
								{line.variantTitle ? (
									<span className="variant-title" data-testid="order-variant">
										{' '}
										· {line.variantTitle}
									</span>
								) : null}
								{showSku && line.sku ? <span className="hint"> · SKU {line.sku}</span> : null}
							</td>
							<td data-label="Price">
								<Price minor={line.unitPriceMinor} currency={order.currency} />
							</td>
							<td data-label="Qty">{line.quantity}</td>
							<td data-label="Total">
								<Price minor={line.lineTotalMinor} currency={order.currency} />
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<OrderCharges order={order} />
			<p className="cart-total">
				Total:{' '}
				<strong data-testid="order-total">
					<Price minor={order.totalMinor} currency={order.currency} />
				</strong>
			</p>
			{order.refundedMinor > 0 ? (
				<p className="cart-total" data-testid="order-refunded">
					Refunded: <Price minor={order.refundedMinor} currency={order.currency} />
				</p>
			) : null}
			<h2>Shipping to</h2>
			<address>
				{order.name}
				<br />
				{order.addressLine1}
				{order.addressLine2 ? (
					<>
						<br />
						{order.addressLine2}
					</>
				) : null}
				<br />
				{order.postalCode} {order.city}, {order.country}
			</address>
			<h2>Payment</h2>
			<p>{order.connection.displayName}</p>
			{order.connection.provider !== 'stripe' && order.status === 'awaiting_payment' ? (
				<div className="payment-instructions" data-testid="payment-instructions">
					{(order.connection.instructions ?? []).map((line, index) => (
						<p key={index}>{line}</p>
					))}
					<p className="hint">We ship once the payment is confirmed.</p>
				</div>
			) : null}
		</div>
	)
}

/** Subtotal, shipping, discount and tax of an Order, when it has any (older Orders have none) [R119, R132]. */
function OrderCharges({ order }: { order: OrderView }) {
	const discountMinor = order.discountMinor ?? 0
	if (!order.shippingName && order.taxMinor === 0 && discountMinor === 0) return null
	return (
		<dl className="order-charges" data-testid="order-charges">
			<dt>Subtotal</dt>
			<dd>
				<Price minor={order.subtotalMinor} currency={order.currency} />
			</dd>
			{order.shippingName ? (
				<>
					<dt>Shipping ({order.shippingName})</dt>
					<dd data-testid="order-shipping">{order.shippingMinor === 0 ? 'Free' : <Price minor={order.shippingMinor} currency={order.currency} />}</dd>
				</>
			) : null}
			{discountMinor > 0 ? (
				<>
					<dt>Discount{order.discountCode ? ` (${order.discountCode})` : ''}</dt>
					<dd data-testid="order-discount">
						−<Price minor={discountMinor} currency={order.currency} />
					</dd>
				</>
			) : null}
			{order.taxMinor > 0 ? (
				<>
					<dt>{order.taxIncluded ? `Includes tax (${percentText(order.taxRateBasisPoints)})` : `Tax (${percentText(order.taxRateBasisPoints)})`}</dt>
					<dd data-testid="order-tax">
						<Price minor={order.taxMinor} currency={order.currency} />
					</dd>
				</>
			) : null}
		</dl>
	)
}
