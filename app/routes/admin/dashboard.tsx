import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { requireAdmin } from '../../auth/guards.server'
import { CAPABILITIES } from '../../config/capabilities'
import { repositoriesFor } from '../../data/repositories.server'

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const store = await repositoriesFor(admin).store.profile()
	return { storeName: store.name, capabilities: CAPABILITIES }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Overview</h1>
			<p>
				You are running <strong>{loaderData.storeName}</strong>.{' '}
				<Link to="/admin/orders">Orders</Link> · <Link to="/admin/products">Products</Link> ·{' '}
				<Link to="/admin/store">Store profile</Link>
			</p>
			<h2>Capabilities</h2>
			<table className="capabilities">
				<tbody>
					{loaderData.capabilities.map((capability) => (
						<tr key={capability.id}>
							<td>{capability.title}</td>
							<td>{capability.offered ? capability.maturity : 'not offered'}</td>
						</tr>
					))}
				</tbody>
			</table>
			<p className="hint">
				Experimental capabilities may change without notice until the release notes mark
				them Stable. There is no screen for adding admins: keep the seeded admin's credentials
				safe and replace the published defaults (<Link to="/account/password">change the password</Link>).
			</p>
		</section>
	)
}
