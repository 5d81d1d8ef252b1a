import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { requireAdmin } from '../../auth/guards.server'
import { CAPABILITIES, stateOf } from '../../config/capabilities'
import { adminRepositoriesFor } from '../../repositories.server'

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repositories = adminRepositoriesFor(admin)
	const [store, checklist] = await Promise.all([repositories.store.profile(), repositories.checklist()])
	return {
		storeName: store.name,
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
				You are running <strong>{loaderData.storeName}</strong>. <Link to="/admin/orders">Orders</Link> · <Link to="/admin/products">Products</Link> ·{' '}
				<Link to="/admin/store">Store profile</Link>
			</p>
			<h2>Before the store is exposed</h2>
			<p className="hint">
				{failing > 0 ? `${failing} check${failing === 1 ? '' : 's'} fail: clear them before the store is reachable from the internet.` : 'No check fails.'} This
				is the read-only part of <code>npm run diagnose</code>; run that too, for the live boundary checks and the proof scenarios.
			</p>
			<table className="checklist">
				<tbody>
					{loaderData.checklist.map((line) => (
						<tr key={line.id} data-check={line.id} data-status={line.status}>
							<td>{LABEL[line.status]}</td>
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
