import { Link } from 'react-router'
import type { Route } from './+types/orders'
import { requireUser } from '../../auth/guards.server'
import { userRepositoriesFor } from '../../repositories.server'
import { Price } from '../../ui/money-format'
import { statusLabel } from '../../ui/order-details'

export const meta = () => [{ title: 'Your orders' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await requireUser(args)
	const orders = await userRepositoriesFor(viewer).myOrders.list()
	return { orders: orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })) }
}

export default function Orders({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Your orders</h1>
			{loaderData.orders.length === 0 ? (
				<div className="empty-state" data-testid="orders-empty">
					<p>You have not placed an order yet.</p>
					<Link to="/">Start shopping</Link>
				</div>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Order</th>
							<th>Date</th>
							<th>Status</th>
							<th>Total</th>
						</tr>
					</thead>
					<tbody>
						{loaderData.orders.map((order) => (
							<tr key={order.number}>
								<td>
									<Link to={`/account/orders/${order.number}`}>#{order.number}</Link>
								</td>
								<td>{order.createdAt.slice(0, 10)}</td>
								<td>{statusLabel(order.status)}</td>
								<td>
									<Price minor={order.totalMinor} currency={order.currency} />
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}
