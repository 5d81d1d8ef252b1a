import { data, Link } from 'react-router'
import type { Route } from './+types/packing-slip'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { DomainError } from '../../errors.server'
import { countryName } from '../../rules/countries'
import { PrintButton } from '../../ui/print-button'

export const meta = ({ data: slip }: Route.MetaArgs) => [{ title: `Packing slip #${slip?.number ?? ''} · Store Admin` }]

/**
 * [R128] An Order's packing slip: where it goes and what is in the parcel (titles, variants,
 * SKUs, quantities), no prices and nothing of the payment. Printable as it is (the admin
 * navigation is not printed). Another Store's number, or one that is not a number, is a 404.
 */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	if (!/^\d{1,9}$/.test(args.params.number)) throw data({ message: 'That order was not found.' }, { status: 404 })
	const repositories = adminRepositoriesFor(admin)
	try {
		const [order, store] = await Promise.all([repositories.adminOrders.byNumber(Number(args.params.number)), repositories.store.profile()])
		return {
			store: store.name,
			number: order.number,
			placed: order.createdAt.toISOString().slice(0, 10),
			shipTo: {
				name: order.name,
				lines: [order.addressLine1, order.addressLine2, `${order.postalCode} ${order.city}`, countryName(order.country)].filter(Boolean),
			},
			email: order.email,
			shipping: order.shippingName,
			carrier: order.carrier,
			trackingNumber: order.trackingNumber,
			lines: order.lines.map((line) => ({ title: line.title, variant: line.variantTitle, sku: line.sku, quantity: line.quantity })),
		}
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

export default function PackingSlip({ loaderData: slip }: Route.ComponentProps) {
	const items = slip.lines.reduce((sum, line) => sum + line.quantity, 0)
	return (
		<article className="packing-slip">
			<p className="breadcrumbs no-print">
				<Link to={`/admin/orders/${slip.number}`}>Order #{slip.number}</Link> · <PrintButton />
			</p>
			<header className="packing-slip-head">
				<p className="packing-slip-store">{slip.store}</p>
				<h1>Packing slip · Order #{slip.number}</h1>
				<p>Placed {slip.placed}</p>
			</header>
			<section className="packing-slip-address" aria-labelledby="ship-to">
				<h2 id="ship-to">Ship to</h2>
				<address data-testid="slip-address">
					{slip.shipTo.name}
					{slip.shipTo.lines.map((line) => (
						<span key={line}>
							<br />
							{line}
						</span>
					))}
				</address>
				<p>
					{slip.shipping ? `Shipping: ${slip.shipping}` : null}
					{slip.carrier ? ` · ${slip.carrier}` : null}
					{slip.trackingNumber ? ` · tracking ${slip.trackingNumber}` : null}
				</p>
			</section>
			<table className="admin-table packing-slip-lines" data-testid="slip-lines">
				<thead>
					<tr>
						<th scope="col">Item</th>
						<th scope="col">SKU</th>
						<th scope="col" className="numeric">
							Quantity
						</th>
					</tr>
				</thead>
				<tbody>
					{slip.lines.map((line, index) => (
						<tr key={index}>
							<td data-label="Item">
								{line.title}
								{line.variant ? ` · ${line.variant}` : ''}
							</td>
							<td data-label="SKU">{line.sku ?? '—'}</td>
							<td data-label="Quantity" className="numeric">
								{line.quantity}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<p>
				{items} {items === 1 ? 'item' : 'items'} in this parcel.
			</p>
		</article>
	)
}
