import { data, Form, Link } from 'react-router'
import type { Route } from './+types/collection'
import { requireAdmin } from '../../auth/guards.server'
import { DomainError } from '../../errors.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formFailure, pageParam, parseForm, recordId } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FormAnswer, FormError, answerTo, unclaimedError } from '../../ui/forms'
import { MoveButtons, RowButton } from '../../ui/move-buttons'
import { Pager } from '../../ui/pager'
import { collectionForm, confirmForm, moveProductForm, productChoiceForm } from './collection-form.server'

export const meta = ({ data: loaded }: Route.MetaArgs) => [{ title: `${loaded?.collection.title ?? 'Collection'} · Store Admin` }]

function collectionId(params: { id: string }) {
	const parsed = recordId.safeParse(params.id)
	if (!parsed.success) throw data({ message: 'That collection was not found.' }, { status: 404 })
	return parsed.data
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	try {
		return await adminRepositoriesFor(admin).collections.get(collectionId(args.params), { page: pageParam(args.request) })
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

/** Save (no intent), add, remove or move a product, or delete the collection (confirmed). */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const id = collectionId(args.params)
	const repo = adminRepositoriesFor(admin).collections
	const intent = new URL(args.request.url).searchParams.get('intent')
	const here = `/admin/collections/${id}`
	// A product's row buttons post from its page of the list, and come back to it.
	const page = pageParam(args.request)
	const back = page > 1 ? `${here}?page=${page}` : here
	// Which of the page's forms this was (its intent; the details form has none): its errors show beside it [R130].
	const sent = { form: intent === null ? 'details' : PRODUCT_FORMS.has(intent) ? 'products' : intent === 'delete' ? 'delete' : null }
	try {
		switch (intent) {
			case null: {
				const form = await parseForm(args.request, collectionForm)
				if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
				await repo.update(id, form.data)
				throw await redirectWithFlash(here, 'Collection saved.')
			}
			case 'add': {
				const form = await parseForm(args.request, productChoiceForm)
				if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
				await repo.addProduct(id, form.data.productId)
				throw await redirectWithFlash(here, 'Product added.')
			}
			case 'remove': {
				const form = await parseForm(args.request, productChoiceForm)
				if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
				await repo.removeProduct(id, form.data.productId)
				throw await redirectWithFlash(back, 'Product removed from the collection.')
			}
			case 'move': {
				const form = await parseForm(args.request, moveProductForm)
				if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
				await repo.moveProduct(id, form.data.productId, form.data.direction)
				throw await redirectWithFlash(back, 'Product moved.')
			}
			case 'delete': {
				const form = await parseForm(args.request, confirmForm)
				if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
				if (!form.data.confirm)
					return data(
						{ ...formFailure({ confirm: 'Tick the box to confirm.' }, 'Tick the box to confirm you want to delete this collection.'), ...sent },
						{ status: 400 },
					)
				await repo.delete(id)
				throw await redirectWithFlash('/admin/collections', 'Collection deleted. Its products are unchanged.')
			}
			default:
				return data({ ...formFailure({}, 'Unknown action.'), ...sent }, { status: 400 })
		}
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error, sent)
	}
}

/** The products card's forms: adding, removing and moving a product answer beside that list. */
const PRODUCT_FORMS = new Set(['add', 'remove', 'move'])
const COLLECTION_FORMS = ['details', 'products', 'delete'] as const

export default function EditCollection({ loaderData, actionData }: Route.ComponentProps) {
	const { collection, products, pickable, total, page, pages, offset } = loaderData
	const rowQuery = page > 1 ? `page=${page}` : undefined
	const answer = (form: (typeof COLLECTION_FORMS)[number]) => answerTo(actionData, form)
	const errors: Record<string, string | undefined> = answer('details')?.fieldErrors ?? {}
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/admin/collections">Collections</Link>
			</p>
			<h1>{collection.title}</h1>
			<p>
				<a href={`/collections/${collection.slug}`}>View in the store</a>
			</p>
			{/* A refusal that names none of the page's forms (an unknown intent) shows here. */}
			<FormError message={unclaimedError(actionData, COLLECTION_FORMS)} />
			{/* Its page without a query: after another form's refusal the address has that form's intent. */}
			<Form method="post" action={`/admin/collections/${collection.id}`} noValidate className="card wide">
				<h2>Details</h2>
				<FormAnswer answer={answer('details')} />
				<Field name="title" label="Title" defaultValue={collection.title} required maxLength={120} error={errors.title} />
				<Field name="slug" label="Slug (the address: /collections/slug)" defaultValue={collection.slug} required maxLength={80} error={errors.slug} />
				<div className="field">
					<label htmlFor="field-description">Description</label>
					<textarea id="field-description" name="description" rows={3} maxLength={2000} defaultValue={collection.description} />
					{errors.description ? <p className="field-error">{errors.description}</p> : null}
				</div>
				<button type="submit">Save</button>
			</Form>

			<div className="card wide">
				<h2>Products, in the order shoppers see them</h2>
				<FormAnswer answer={answer('products')} />
				{products.length === 0 ? (
					<p data-testid="collection-products-empty">{total === 0 ? 'No products in this collection yet.' : 'No products on this page.'}</p>
				) : (
					<ol className="collection-products" start={offset + 1}>
						{products.map((product, index) => (
							<li key={product.id} data-testid="collection-product">
								<Link to={`/admin/products/${product.id}`}>{product.title}</Link>
								{product.status === 'active' ? null : <span className="hint"> ({product.status}: not shown)</span>}
								<div className="row-actions">
									<MoveButtons
										fields={{ productId: product.id }}
										first={offset + index === 0}
										last={offset + index === total - 1}
										title={product.title}
										query={rowQuery}
									/>
									<RowButton intent="remove" fields={{ productId: product.id }} label={`Remove ${product.title}`} query={rowQuery}>
										Remove
									</RowButton>
								</div>
							</li>
						))}
					</ol>
				)}
				<Pager page={page} pages={pages} summary={`${total} products`} />
				{pickable.length > 0 ? (
					<Form method="post" action="?intent=add" className="inline-form">
						<label htmlFor="add-product">Add a product</label>
						<select id="add-product" name="productId" required>
							{pickable.map((product) => (
								<option key={product.id} value={product.id}>
									{product.title}
								</option>
							))}
						</select>
						<button type="submit">Add</button>
					</Form>
				) : (
					<p className="hint">Every product is in this collection already.</p>
				)}
			</div>

			<div className="card wide danger-zone">
				<h2>Delete</h2>
				<Form method="post" action="?intent=delete" className="confirm-form" data-testid="delete-collection">
					<FormAnswer answer={answer('delete')} />
					<label>
						<input type="checkbox" name="confirm" value="yes" /> Yes, delete this collection (its products stay)
					</label>
					<button type="submit" className="danger">
						Delete
					</button>
				</Form>
			</div>
		</section>
	)
}
