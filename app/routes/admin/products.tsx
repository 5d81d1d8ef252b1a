import { Link } from 'react-router'
import type { Route } from './+types/products'
import { requireAdmin } from '../../auth/guards.server'
import { PRODUCT_STATUSES } from '../../catalog/status'
import { adminRepositoriesFor } from '../../repositories.server'
import { listQuery } from '../../security/form.server'
import { AdminList } from '../../ui/admin-list'
import { Price } from '../../ui/money-format'

export const meta = () => [{ title: 'Products · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return adminRepositoriesFor(admin).products.page(listQuery(args.request, { statuses: PRODUCT_STATUSES, maxQuery: 80 }))
}

export default function Products({ loaderData }: Route.ComponentProps) {
	const { products, page, pages, total, more } = loaderData
	return (
		<AdminList
			heading="Products"
			action={
				<span className="toolbar-actions">
					<a href="/admin/products/export.csv" download>
						Export CSV
					</a>
					<Link to="/admin/products/new" className="button">
						Add product
					</Link>
				</span>
			}
			search={{ label: 'Search', maxLength: 80 }}
			statuses={{ values: PRODUCT_STATUSES, label: (status) => status }}
			rows={products}
			columns={[
				{
					header: 'Title',
					cell: (product) => (
						<>
							<Link to={`/admin/products/${product.id}`}>{product.title}</Link>
							<br />
							<code>{product.slug}</code>
						</>
					),
				},
				{ header: 'Status', cell: (product) => product.status },
				{
					header: 'Price',
					cell: (product) => (
						<>
							{product.priceVaries ? 'From ' : null}
							<Price minor={product.priceMinor} />
						</>
					),
				},
				{ header: 'Stock', cell: (product) => product.stock },
				{ header: 'Variants', cell: (product) => product.variantCount },
			]}
			empty={(filtered) => (total === 0 && !filtered ? 'No products yet. Add your first one.' : 'No product matches.')}
			pager={{
				page,
				pages,
				summary: more ? `More than ${total} products match: the first ${total} are listed; add a word to narrow the search` : `${total} products`,
			}}
		/>
	)
}
