import { Link, NavLink, Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { requireAdmin } from '../../auth/guards.server'

/**
 * [R5] every request under /admin — document, data request for any
 * child route, loader or action — passes this guard before anything else runs.
 * Child loaders and actions still call requireAdmin themselves (it is cheap:
 * the viewer is read once per request) so moving a route cannot unguard it.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async (args, next) => {
		await requireAdmin(args)
		return next()
	},
]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return { email: admin.email }
}

export const meta = () => [{ title: 'Store Admin' }]

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	return (
		<div className="admin">
			<aside className="admin-side">
				<p className="admin-title">
					<Link to="/admin">Store Admin</Link>
				</p>
				{/* On a phone the menu folds away behind this toggle, with or without JavaScript. */}
				<input type="checkbox" id="admin-menu-toggle" className="admin-menu-toggle" />
				<label htmlFor="admin-menu-toggle" className="admin-menu-button">
					Menu
				</label>
				<nav aria-label="Store Admin">
					<NavLink to="/admin" end>
						Overview
					</NavLink>
					<NavLink to="/admin/orders">Orders</NavLink>
					<NavLink to="/admin/customers">Customers</NavLink>
					<NavLink to="/admin/products">Products</NavLink>
					<NavLink to="/admin/collections">Collections</NavLink>
					<NavLink to="/admin/shipping">Shipping and taxes</NavLink>
					<NavLink to="/admin/discounts">Discounts</NavLink>
					<NavLink to="/admin/uploads">Uploads</NavLink>
					<NavLink to="/admin/events">Events</NavLink>
					<NavLink to="/admin/connections">Connections</NavLink>
					<NavLink to="/admin/email">Email</NavLink>
					<NavLink to="/admin/newsletter">Newsletter</NavLink>
					<NavLink to="/admin/reviews">Reviews</NavLink>
					<NavLink to="/admin/store">Store profile</NavLink>
					<NavLink to="/admin/activity">Activity</NavLink>
				</nav>
				<p className="hint">
					Signed in as {loaderData.email} · <Link to="/account/password?redirectTo=%2Fadmin">Change password</Link>
				</p>
			</aside>
			<div className="admin-content">
				<Outlet />
			</div>
		</div>
	)
}
