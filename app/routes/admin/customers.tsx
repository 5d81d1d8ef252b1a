import type { Route } from './+types/customers'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { listQuery } from '../../security/form.server'
import { AdminList } from '../../ui/admin-list'
import { Price } from '../../ui/money-format'
import { Link } from '../../ui/link'

export const meta = () => [{ title: 'Customers · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repositories = adminRepositoriesFor(admin)
	const [found, store] = await Promise.all([
		repositories.customers.page(listQuery(args.request, { statuses: [], maxQuery: 120 })),
		repositories.store.profile(),
	])
	return { ...found, currency: store.currency, customers: found.customers.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) }
}

export default function Customers({ loaderData }: Route.ComponentProps) {
	const { customers, page, pages, total, currency } = loaderData
	return (
		<AdminList
			heading="Customers"
			search={{ label: 'Name or email', maxLength: 120 }}
			rows={customers}
			columns={[
				{
					header: 'Customer',
					cell: (customer) => (
						<>
							<Link to={`/admin/customers/${customer.id}`}>{customer.name}</Link>
							<br />
							{customer.email}
						</>
					),
				},
				{ header: 'Since', cell: (customer) => customer.createdAt.slice(0, 10) },
				{ header: 'Orders', cell: (customer) => customer.orders },
				{ header: 'Spent', cell: (customer) => <Price minor={customer.spentMinor} currency={currency} /> },
			]}
			empty={(filtered) => (total === 0 && !filtered ? 'No customer accounts yet: guests who check out are not listed here.' : 'No customer matches.')}
			pager={{ page, pages, summary: `${total} customers` }}
		/>
	)
}
