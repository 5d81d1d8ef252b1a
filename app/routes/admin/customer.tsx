import { data, Link } from 'react-router'
import type { Route } from './+types/customer'
import { requireAdmin } from '../../auth/guards.server'
import { DomainError } from '../../errors.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { recordId } from '../../security/form.server'
import { Price } from '../../ui/money-format'
import { OrdersTable } from '../../ui/orders-table'
import { Email } from '../../ui/email'

export const meta = ({ data: loaded }: Route.MetaArgs) => [{ title: `${loaded?.customer.name ?? 'Customer'} · Store Admin` }]

/** [R115] One customer, read-only: who they are and their Orders. No credential is read or shown. */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const id = recordId.safeParse(args.params.id)
	if (!id.success) throw data({ message: 'That customer was not found.' }, { status: 404 })
	try {
		const { customer, orders } = await adminRepositoriesFor(admin).customers.get(id.data)
		return {
			customer: { ...customer, createdAt: customer.createdAt.toISOString() },
			orders: orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
		}
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

export default function Customer({ loaderData }: Route.ComponentProps) {
	const { customer, orders } = loaderData
	const currency = orders[0]?.currency
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/admin/customers">Customers</Link>
			</p>
			<h1>{customer.name}</h1>
			<p>
				<span data-testid="customer-email">
					<Email address={customer.email} />
				</span>{' '}
				· customer since {customer.createdAt.slice(0, 10)} · {customer.orders} {customer.orders === 1 ? 'order' : 'orders'}
				{currency ? (
					<>
						{' '}
						· spent <Price minor={customer.spentMinor} currency={currency} />
					</>
				) : null}
			</p>
			<h2>Orders</h2>
			{orders.length === 0 ? (
				<p data-testid="customer-orders-empty">No orders yet.</p>
			) : (
				<OrdersTable orders={orders} href={(number) => `/admin/orders/${number}`} withTime testId="customer-order" />
			)}
			<p className="hint">Read-only: customers manage their own name and password; Store Admin cannot change them.</p>
		</section>
	)
}
