import { data, Link } from 'react-router'
import type { Route } from './+types/customer-guest'
import { requireAdmin } from '../../auth/guards.server'
import { DomainError } from '../../errors.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { fields } from '../../security/form.server'
import { Price } from '../../ui/money-format'
import { OrdersTable } from '../../ui/orders-table'
import { Email } from '../../ui/email'

export const meta = ({ data: loaded }: Route.MetaArgs) => [{ title: `${loaded?.guest.email ?? 'Guest buyer'} · Store Admin` }]

/** [R129] One guest buyer, by the email of their Orders: those Orders and what they spent. */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const email = fields.email.safeParse(new URL(args.request.url).searchParams.get('email') ?? '')
	if (!email.success) throw data({ message: 'That guest buyer was not found.' }, { status: 404 })
	try {
		const { guest, orders } = await adminRepositoriesFor(admin).customers.guest(email.data)
		return { guest, orders: orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })) }
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

export default function GuestBuyer({ loaderData }: Route.ComponentProps) {
	const { guest, orders } = loaderData
	const currency = orders[0]?.currency
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/admin/customers?show=guests">Guest buyers</Link>
			</p>
			<h1>
				<Email address={guest.email} />
			</h1>
			<p>
				Bought as a guest (no account) · {guest.orders} {guest.orders === 1 ? 'order' : 'orders'}
				{currency ? (
					<>
						{' '}
						· spent <Price minor={guest.spentMinor} currency={currency} />
					</>
				) : null}
			</p>
			<h2>Orders</h2>
			<OrdersTable orders={orders} href={(number) => `/admin/orders/${number}`} withTime testId="guest-order" />
		</section>
	)
}
