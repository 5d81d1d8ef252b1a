import { data, Link } from 'react-router'
import type { Route } from './+types/order'
import { connectionForBuyer } from '../../rules/payment-instructions'
import { requireUser } from '../../auth/guards.server'
import { userRepositoriesFor } from '../../repositories.server'
import { OrderDetails } from '../../ui/order-details'

export const meta = ({ data: order }: Route.MetaArgs) => [{ title: order ? `Order #${order.number}` : 'Order' }]

/** A Customer's own Order by number; anyone else's number is simply not found (404). */
export async function loader(args: Route.LoaderArgs) {
	const viewer = await requireUser(args)
	const number = /^\d{1,9}$/.test(args.params.number) ? Number(args.params.number) : Number.NaN
	const order = Number.isSafeInteger(number) ? await userRepositoriesFor(viewer).myOrders.byNumber(number) : null
	if (!order) throw data({ message: 'There is no such order in your account.' }, { status: 404 })
	const { id: _id, connection, ...rest } = order
	return { ...rest, createdAt: order.createdAt.toISOString(), connection: connectionForBuyer(connection, order.number) }
}

export default function AccountOrder({ loaderData: order }: Route.ComponentProps) {
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/account/orders">Your orders</Link>
			</p>
			<h1>Order #{order.number}</h1>
			<OrderDetails order={order} />
		</section>
	)
}
