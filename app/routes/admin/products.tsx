import { Form, Link, useSearchParams } from 'react-router'
import type { Route } from './+types/products'
import { requireAdmin } from '../../auth/guards.server'
import { PRODUCT_STATUSES, type ProductStatus } from '../../catalog/status'
import { adminRepositoriesFor } from '../../data/repositories.server'
import { pageParam } from '../../security/form.server'
import { Price } from '../../ui/money-format'
import { Pager } from '../../ui/pager'

export const meta = () => [{ title: 'Products · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const params = new URL(args.request.url).searchParams
	const status = params.get('status') ?? ''
	return adminRepositoriesFor(admin).products.page({
		page: pageParam(args.request),
		query: (params.get('q') ?? '').trim().slice(0, 80),
		status: (PRODUCT_STATUSES as readonly string[]).includes(status) ? (status as ProductStatus) : undefined,
	})
}

export default function Products({ loaderData }: Route.ComponentProps) {
	const [params] = useSearchParams()
	const { products, page, pages, total } = loaderData
	return (
		<section>
			<div className="toolbar">
				<h1>Products</h1>
				<Link to="/admin/products/new" className="button">
					Add product
				</Link>
			</div>
			<Form method="get" className="filters">
				<label>
					Search <input type="search" name="q" defaultValue={params.get('q') ?? ''} maxLength={80} />
				</label>
				<label>
					Status{' '}
					<select name="status" defaultValue={params.get('status') ?? ''}>
						<option value="">All</option>
						{PRODUCT_STATUSES.map((status) => (
							<option key={status} value={status}>
								{status}
							</option>
						))}
					</select>
				</label>
				<button type="submit" className="secondary">
					Filter
				</button>
			</Form>
			{products.length === 0 ? (
				<p className="empty-state">{total === 0 && !params.get('q') && !params.get('status') ? 'No products yet. Add your first one.' : 'No product matches.'}</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Title</th>
							<th>Status</th>
							<th>Price</th>
							<th>Stock</th>
						</tr>
					</thead>
					<tbody>
						{products.map((product) => (
							<tr key={product.id}>
								<td>
									<Link to={`/admin/products/${product.id}`}>{product.title}</Link>
									<br />
									<code>{product.slug}</code>
								</td>
								<td>{product.status}</td>
								<td>
									<Price minor={product.priceMinor} />
								</td>
								<td>{product.stock}</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<Pager page={page} pages={pages} summary={`${total} products`} always />
		</section>
	)
}
