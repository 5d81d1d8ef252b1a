import { Link } from 'react-router'
import type { Route } from './+types/orders'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { ORDER_STATUSES, type OrderStatus } from '../../rules/order-status'
import { cursorParam, listQuery } from '../../security/form.server'
import { ORDER_CURSOR } from '../../orders/admin-orders.server'
import { AdminList } from '../../ui/admin-list'
import { StatusBadge } from '../../ui/badge'
import { Price } from '../../ui/money-format'
import { statusLabel } from '../../ui/order-details'
import { Email } from '../../ui/email'

export const meta = () => [{ title: 'Orders · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const { query, status } = listQuery(args.request, { statuses: ORDER_STATUSES, maxQuery: 120 })
	const cursor = cursorParam(args.request, ORDER_CURSOR)
	const result = await adminRepositoriesFor(admin).adminOrders.page({ cursor, query, status })
	return { ...result, orders: result.orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })) }
}

export default function Orders({ loaderData }: Route.ComponentProps) {
	const { orders, newer, older, total, more } = loaderData
	return (
		<AdminList
			heading="Orders"
			action={
				// A plain form: the CSV is a download, not a page of the app.
				<form method="get" action="/admin/orders/export.csv" className="export-form">
					<label>
						From <input type="date" name="from" />
					</label>
					<label>
						To <input type="date" name="to" />
					</label>
					<button type="submit" className="secondary">
						Export CSV
					</button>
				</form>
			}
			search={{ label: 'Number or email', maxLength: 120 }}
			statuses={{ values: ORDER_STATUSES, label: (status) => statusLabel(status as OrderStatus) }}
			rows={orders}
			columns={[
				{ header: 'Order', cell: (order) => <Link to={`/admin/orders/${order.number}`}>#{order.number}</Link> },
				{ header: 'Date', cell: (order) => order.createdAt.slice(0, 10) },
				{ header: 'Customer', cell: (order) => <Email address={order.email} /> },
				{ header: 'Status', cell: (order) => <StatusBadge status={order.status} /> },
				{ header: 'Total', cell: (order) => <Price minor={order.totalMinor} currency={order.currency} /> },
			]}
			empty={() => 'No orders match.'}
			pager={{
				newer,
				older,
				summary: more ? `More than ${total} orders match: the newest ${total} are listed; add a word to narrow the search` : `${total} orders`,
			}}
		/>
	)
}
