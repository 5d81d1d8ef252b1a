import { Link } from 'react-router'
import type { Route } from './+types/customers'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { listQuery } from '../../security/form.server'
import { AdminList } from '../../ui/admin-list'
import { Price } from '../../ui/money-format'
import { Email } from '../../ui/email'

export const meta = () => [{ title: 'Customers · Store Admin' }]

/** `?show=guests` lists the guest buyers [R129]; anything else, the accounts [R115]. */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repositories = adminRepositoriesFor(admin)
	const query = listQuery(args.request, { statuses: [], maxQuery: 120 })
	const show = new URL(args.request.url).searchParams.get('show') === 'guests' ? 'guests' : 'accounts'
	const store = await repositories.store.profile()
	if (show === 'guests') {
		const found = await repositories.customers.guests(query)
		const { total, more, page, pages } = found
		const guests = found.guests.map((guest) => ({ id: guest.email, ...guest, lastOrderAt: guest.lastOrderAt.toISOString() }))
		return { show, currency: store.currency, total, more, page, pages, guests, accounts: [] }
	}
	const { total, more, page, pages, customers } = await repositories.customers.page(query)
	return {
		show,
		currency: store.currency,
		total,
		more,
		page,
		pages,
		guests: [],
		accounts: customers.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
	}
}

export default function Customers({ loaderData }: Route.ComponentProps) {
	const { page, pages, total, currency } = loaderData
	const tabs = (
		<nav aria-label="Kinds of customer" className="tabs">
			<Link to="/admin/customers" aria-current={loaderData.show === 'accounts' ? 'page' : undefined}>
				Accounts
			</Link>
			<Link to="/admin/customers?show=guests" aria-current={loaderData.show === 'guests' ? 'page' : undefined}>
				Guest buyers
			</Link>
		</nav>
	)
	const spent = (row: { spentMinor: number }) => <Price minor={row.spentMinor} currency={currency} />
	if (loaderData.show === 'guests') {
		return (
			<AdminList
				heading="Customers"
				action={tabs}
				search={{ label: 'Email', maxLength: 120 }}
				keep={{ show: 'guests' }}
				rows={loaderData.guests}
				columns={[
					{
						header: 'Guest buyer',
						cell: (guest) => (
							<Link to={`/admin/customers/guest?email=${encodeURIComponent(guest.email)}`}>
								<Email address={guest.email} />
							</Link>
						),
					},
					{ header: 'Last order', cell: (guest) => guest.lastOrderAt.slice(0, 10) },
					{ header: 'Orders', cell: (guest) => guest.orders },
					{ header: 'Spent', cell: spent },
				]}
				empty={(filtered) => (total === 0 && !filtered ? 'No guest has bought yet.' : 'No guest buyer matches.')}
				pager={{
					page,
					pages,
					summary: loaderData.more
						? `More than ${total} guest buyers match: the first ${total} are listed; add to the search to narrow it`
						: `${total} guest buyers`,
				}}
			/>
		)
	}
	return (
		<AdminList
			heading="Customers"
			action={tabs}
			search={{ label: 'Name or email', maxLength: 120 }}
			rows={loaderData.accounts}
			columns={[
				{
					header: 'Customer',
					cell: (customer) => (
						<>
							<Link to={`/admin/customers/${customer.id}`}>{customer.name}</Link>
							<br />
							<Email address={customer.email} />
						</>
					),
				},
				{ header: 'Since', cell: (customer) => customer.createdAt.slice(0, 10) },
				{ header: 'Orders', cell: (customer) => customer.orders },
				{ header: 'Spent', cell: spent },
			]}
			empty={(filtered) => (total === 0 && !filtered ? 'No customer accounts yet: guest buyers are under “Guest buyers”.' : 'No customer matches.')}
			pager={{
				page,
				pages,
				summary: loaderData.more ? `More than ${total} customers match: the first ${total} are listed; add a word to narrow the search` : `${total} customers`,
			}}
		/>
	)
}
