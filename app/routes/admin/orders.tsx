import { Form, Link, useSearchParams } from 'react-router'
import type { Route } from './+types/orders'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../data/repositories.server'
import { isOrderStatus, ORDER_STATUSES } from '../../orders/status'
import { pageParam } from '../../security/form.server'
import { Price } from '../../ui/money-format'
import { Pager } from '../../ui/pager'
import { statusLabel } from '../../ui/order-details'

export const meta = () => [{ title: 'Orders · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const params = new URL(args.request.url).searchParams
	const status = params.get('status') ?? ''
	const result = await adminRepositoriesFor(admin).adminOrders.page({
		page: pageParam(args.request),
		query: (params.get('q') ?? '').trim().slice(0, 120),
		status: isOrderStatus(status) ? status : undefined,
	})
	return { ...result, orders: result.orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })) }
}

export default function Orders({ loaderData }: Route.ComponentProps) {
	const [params] = useSearchParams()
	const { orders, page, pages, total } = loaderData
	return (
		<section>
			<h1>Orders</h1>
			<Form method="get" className="filters">
				<label>
					Number or email <input type="search" name="q" defaultValue={params.get('q') ?? ''} maxLength={120} />
				</label>
				<label>
					Status{' '}
					<select name="status" defaultValue={params.get('status') ?? ''}>
						<option value="">All</option>
						{ORDER_STATUSES.map((status) => (
							<option key={status} value={status}>
								{statusLabel(status)}
							</option>
						))}
					</select>
				</label>
				<button type="submit" className="secondary">
					Filter
				</button>
			</Form>
			{orders.length === 0 ? (
				<p className="empty-state">{total === 0 ? 'No orders match.' : ''}</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Order</th>
							<th>Date</th>
							<th>Customer</th>
							<th>Status</th>
							<th>Total</th>
						</tr>
					</thead>
					<tbody>
						{orders.map((order) => (
							<tr key={order.id}>
								<td>
									<Link to={`/admin/orders/${order.number}`}>#{order.number}</Link>
								</td>
								<td>{order.createdAt.slice(0, 10)}</td>
								<td>{order.email}</td>
								<td>{statusLabel(order.status)}</td>
								<td>
									<Price minor={order.totalMinor} currency={order.currency} />
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<Pager page={page} pages={pages} summary={`${total} orders`} labels={['Newer', 'Older']} always />
		</section>
	)
}
