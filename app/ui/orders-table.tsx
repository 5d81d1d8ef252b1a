import { Link } from 'react-router'
import { Price } from './money-format'
import { StatusBadge } from './badge'

type OrderRow = { number: number; createdAt: string; status: string; totalMinor: number; currency: string }

/**
 * A list of Orders (number, date, status, total), each linking to `href(number)`: a Customer's
 * own list and a customer's Orders in Store Admin. Dates are ISO strings, shown to the minute
 * (`withTime`) or to the day.
 */
export function OrdersTable({
	orders,
	href,
	withTime = false,
	testId,
}: {
	orders: OrderRow[]
	href: (number: number) => string
	withTime?: boolean
	testId?: string
}) {
	return (
		<table className="data-table">
			<thead>
				<tr>
					<th>Order</th>
					<th>{withTime ? 'Placed (UTC)' : 'Date'}</th>
					<th>Status</th>
					<th>Total</th>
				</tr>
			</thead>
			<tbody>
				{orders.map((order) => (
					<tr key={order.number} data-testid={testId}>
						<td data-label="Order">
							<Link to={href(order.number)}>#{order.number}</Link>
						</td>
						<td data-label={withTime ? 'Placed (UTC)' : 'Date'}>{withTime ? order.createdAt.replace('T', ' ').slice(0, 16) : order.createdAt.slice(0, 10)}</td>
						<td data-label="Status">
							<StatusBadge status={order.status} />
						</td>
						<td data-label="Total">
							<Price minor={order.totalMinor} currency={order.currency} />
						</td>
					</tr>
				))}
			</tbody>
		</table>
	)
}
