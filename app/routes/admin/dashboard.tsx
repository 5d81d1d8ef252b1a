import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { requireAdmin } from '../../auth/guards.server'
import { repositoriesFor } from '../../data/repositories.server'

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const store = await repositoriesFor(admin).store.profile()
	return { storeName: store.name }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	return (
		<section>
			<h1>Overview</h1>
			<p>
				You are running <strong>{loaderData.storeName}</strong>.{' '}
				<Link to="/admin/store">Edit the store profile</Link>.
			</p>
			<p className="hint">
				Products, Orders and uploads arrive in later releases. There is no screen for adding
				admins: keep the seeded admin's credentials safe and replace the published defaults.
			</p>
		</section>
	)
}
