import { data, Form, Link } from 'react-router'
import type { Route } from './+types/collections'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formFailure, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FormError } from '../../ui/forms'
import { MoveButtons } from '../../ui/move-buttons'
import { collectionForm, moveCollectionForm } from './collection-form.server'

export const meta = () => [{ title: 'Collections · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return { collections: await adminRepositoriesFor(admin).collections.list() }
}

/** Create a collection (no intent), or move one up or down the Store's list. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const repo = adminRepositoriesFor(admin).collections
	const intent = new URL(args.request.url).searchParams.get('intent')
	try {
		if (intent === 'move') {
			const form = await parseForm(args.request, moveCollectionForm)
			if (!form.ok) return data(form, { status: 400 })
			await repo.move(form.data.id, form.data.direction)
			throw await redirectWithFlash('/admin/collections', 'Collection moved.')
		}
		if (intent) return data(formFailure({}, 'Unknown action.'), { status: 400 })
		const form = await parseForm(args.request, collectionForm)
		if (!form.ok) return data(form, { status: 400 })
		const created = await repo.create(form.data)
		throw await redirectWithFlash(`/admin/collections/${created.id}`, 'Collection created. Add products to it below.')
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function Collections({ loaderData, actionData }: Route.ComponentProps) {
	const { collections } = loaderData
	const errors = actionData?.fieldErrors ?? {}
	return (
		<section>
			<h1>Collections</h1>
			<p className="hint">Shoppers see collections in this order, linked from the home page, each at /collections/slug.</p>
			{collections.length === 0 ? (
				<p data-testid="collections-empty">No collections yet.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th scope="col">Collection</th>
							<th scope="col">Products</th>
							<th scope="col">Order</th>
						</tr>
					</thead>
					<tbody>
						{collections.map((collection, index) => (
							<tr key={collection.id} data-testid="collection-row">
								<td data-label="Collection">
									<Link to={`/admin/collections/${collection.id}`}>{collection.title}</Link>
									<br />
									<code>{collection.slug}</code>
								</td>
								<td data-label="Products">{collection._count.products}</td>
								<td data-label="Order">
									<div className="row-actions">
										<MoveButtons fields={{ id: collection.id }} first={index === 0} last={index === collections.length - 1} title={collection.title} />
									</div>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<Form method="post" noValidate className="card wide">
				<h2>New collection</h2>
				<FormError message={actionData?.formError} />
				<Field name="title" label="Title" required maxLength={120} error={errors.title} />
				<Field name="slug" label="Slug (the address: /collections/slug)" required maxLength={80} error={errors.slug} />
				<div className="field">
					<label htmlFor="field-description">Description</label>
					<textarea id="field-description" name="description" rows={3} maxLength={2000} />
					{errors.description ? <p className="field-error">{errors.description}</p> : null}
				</div>
				<button type="submit">Create collection</button>
			</Form>
		</section>
	)
}
