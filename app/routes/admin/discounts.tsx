import { Link } from 'react-router'
import type { Route } from './+types/discounts'
import { requireAdmin } from '../../auth/guards.server'
import { percentText } from '../../rules/totals'
import { adminRepositoriesFor } from '../../repositories.server'
import { Price } from '../../ui/money-format'
import { Badge } from '../../ui/badge'

export const meta = () => [{ title: 'Discounts · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return { discounts: await adminRepositoriesFor(admin).discounts.list() }
}

const day = (moment: Date | string | null) => (moment ? new Date(moment).toISOString().slice(0, 16).replace('T', ' ') : '')

/** [R135] The Store's discount codes: what each takes off, when, and how often it was used. */
export default function Discounts({ loaderData }: Route.ComponentProps) {
	const { discounts } = loaderData
	return (
		<section>
			<h1>Discounts</h1>
			<p>
				<Link to="/admin/discounts/new">New discount</Link>
			</p>
			{discounts.length === 0 ? (
				<p data-testid="discounts-empty">No discount codes yet.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th scope="col">Code</th>
							<th scope="col">Takes off</th>
							<th scope="col">Minimum</th>
							<th scope="col">Valid (UTC)</th>
							<th scope="col">Used</th>
							<th scope="col">Status</th>
						</tr>
					</thead>
					<tbody>
						{discounts.map((discount) => (
							<tr key={discount.id} data-testid="discount-row">
								<td data-label="Code">
									<Link to={`/admin/discounts/${discount.id}`}>
										<code>{discount.code}</code>
									</Link>
									{discount.oncePerCustomer ? <span className="hint"> · once per customer</span> : null}
								</td>
								<td data-label="Takes off">
									{discount.kind === 'percentage' ? (
										percentText(discount.value)
									) : discount.kind === 'fixed' ? (
										<Price minor={discount.value} />
									) : (
										'Free shipping'
									)}
								</td>
								<td data-label="Minimum">{discount.minimumSubtotalMinor !== null ? <Price minor={discount.minimumSubtotalMinor} /> : '—'}</td>
								<td data-label="Valid (UTC)">
									{discount.startsAt || discount.endsAt ? `${day(discount.startsAt) || 'now'} – ${day(discount.endsAt) || 'open'}` : 'Always'}
								</td>
								<td data-label="Used" data-testid="discount-used">
									{discount.usedCount}
									{discount.usageLimit !== null ? ` of ${discount.usageLimit}` : ''}
								</td>
								<td data-label="Status">
									<Badge tone={discount.active ? 'good' : 'muted'}>{discount.active ? 'Active' : 'Inactive'}</Badge>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}
