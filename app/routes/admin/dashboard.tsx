import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { CheckBadge } from '../../ui/badge'
import { requireAdmin } from '../../auth/guards.server'
import { CAPABILITIES, stateOf } from '../../config/capabilities'
import { adminRepositoriesFor } from '../../repositories.server'
import { Price } from '../../ui/money-format'
import { LOW_STOCK } from '../../ui/stock'

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repositories = adminRepositoriesFor(admin)
	const [store, checklist, overview, lowStock] = await Promise.all([
		repositories.store.profile(),
		repositories.checklist(),
		repositories.dashboard.overview(),
		repositories.products.lowStock(LOW_STOCK),
	])
	const waiting = (orders: typeof overview.awaitingPayment.oldest) =>
		orders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null }))
	return {
		storeName: store.name,
		currency: store.currency,
		sales: overview.sales,
		awaitingPayment: { count: overview.awaitingPayment.count, oldest: waiting(overview.awaitingPayment.oldest) },
		awaitingShipping: { count: overview.awaitingShipping.count, oldest: waiting(overview.awaitingShipping.oldest) },
		lowStock,
		checklist,
		capabilities: CAPABILITIES.map((c) => ({ id: c.id, title: c.title, state: stateOf(c) })),
	}
}

const LABEL = { pass: 'Pass', warn: 'Warning', fail: 'Fail', info: 'Info' } as const

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	const failing = loaderData.checklist.filter((line) => line.status === 'fail').length
	return (
		<section>
			<h1>Overview</h1>
			<p>
				You are running <strong>{loaderData.storeName}</strong>.
			</p>
			<h2>Sales</h2>
			<ul className="stat-tiles" data-testid="sales">
				{loaderData.sales.map((window) => (
					<li key={window.key} data-window={window.key}>
						<span className="stat-label">{window.label}</span>
						<strong className="stat-value">
							<Price minor={window.netMinor} currency={loaderData.currency} />
						</strong>
						<span className="hint">
							{window.orders} {window.orders === 1 ? 'order' : 'orders'} paid
						</span>
					</li>
				))}
			</ul>
			<p className="hint">What was paid for orders whose payment arrived in the period, less what has been refunded of them.</p>
			<div className="dashboard-grid">
				<WaitingOrders
					title="Awaiting payment"
					testId="awaiting-payment"
					status="awaiting_payment"
					waiting={loaderData.awaitingPayment}
					when={(order) => `placed ${order.createdAt.slice(0, 10)}`}
				/>
				<WaitingOrders
					title="Paid, to ship"
					testId="awaiting-shipping"
					status="paid"
					waiting={loaderData.awaitingShipping}
					when={(order) => `paid ${(order.paidAt ?? order.createdAt).slice(0, 10)}`}
				/>
				<section className="card" data-testid="low-stock">
					<h2>
						Low stock <span className="count">({loaderData.lowStock.count})</span>
					</h2>
					{loaderData.lowStock.products.length === 0 ? (
						<p className="hint">No product for sale has {LOW_STOCK} or fewer left.</p>
					) : (
						<ul>
							{loaderData.lowStock.products.map((product) => (
								<li key={product.id}>
									<Link to={`/admin/products/${product.id}`}>{product.title}</Link>: {product.stock === 0 ? 'sold out' : `${product.stock} left`}
								</li>
							))}
						</ul>
					)}
				</section>
			</div>
			<h2>Before the store is exposed</h2>
			<p className="hint">
				{failing > 0 ? `${failing} check${failing === 1 ? '' : 's'} fail: clear them before the store is reachable from the internet.` : 'No check fails.'} This
				is the read-only part of <code>npm run diagnose</code>; run that too, for the live boundary checks and the proof scenarios.
			</p>
			<table className="checklist">
				<tbody>
					{loaderData.checklist.map((line) => (
						<tr key={line.id} data-check={line.id} data-status={line.status}>
							<td>
								<CheckBadge status={line.status} label={LABEL[line.status]} />
							</td>
							<td>{line.title}</td>
							<td>
								{line.found}
								{line.fix && line.status !== 'pass' ? <div className="hint">Fix: {line.fix}</div> : null}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<h2>Capabilities</h2>
			<table className="capabilities">
				<tbody>
					{loaderData.capabilities.map((capability) => (
						<tr key={capability.id}>
							<td>{capability.title}</td>
							<td>{capability.state}</td>
						</tr>
					))}
				</tbody>
			</table>
			<p className="hint">
				Experimental capabilities may change without notice until the release guidance (docs/releases) marks them Stable. There is no screen for adding admins:
				keep the seeded admin's credentials safe and replace the published defaults (<Link to="/account/password">change the password</Link>).
			</p>
		</section>
	)
}

type Waiting = {
	count: number
	oldest: Array<{ id: string; number: number; email: string; currency: string; totalMinor: number; createdAt: string; paidAt: string | null }>
}

function WaitingOrders({
	title,
	testId,
	status,
	waiting,
	when,
}: {
	title: string
	testId: string
	status: string
	waiting: Waiting
	when: (order: Waiting['oldest'][number]) => string
}) {
	return (
		<section className="card" data-testid={testId}>
			<h2>
				<Link to={`/admin/orders?status=${status}`}>
					{title} <span className="count">({waiting.count})</span>
				</Link>
			</h2>
			{waiting.oldest.length === 0 ? (
				<p className="hint">None.</p>
			) : (
				<ul>
					{waiting.oldest.map((order) => (
						<li key={order.id}>
							<Link to={`/admin/orders/${order.number}`}>#{order.number}</Link> · <Price minor={order.totalMinor} currency={order.currency} /> · {when(order)}
						</li>
					))}
				</ul>
			)}
			{waiting.count > waiting.oldest.length ? <Link to={`/admin/orders?status=${status}`}>All {waiting.count}, oldest first in the list</Link> : null}
		</section>
	)
}
