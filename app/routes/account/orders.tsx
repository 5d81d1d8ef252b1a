import { Link } from 'react-router'
import type { Route } from './+types/orders'
import { requireUser } from '../../auth/guards.server'
import { userRepositoriesFor } from '../../repositories.server'
import { OrdersTable } from '../../ui/orders-table'

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
				<OrdersTable orders={loaderData.orders} href={(number) => `/account/orders/${number}`} />
			)}
		</section>
	)
}
