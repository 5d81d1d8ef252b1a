import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/product-edit'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { DomainError } from '../../errors.server'
import { domainFailure, formFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { ProductEditor } from '../../ui/product-editor'
import { readProductForm } from './product-form.server'

export const meta = ({ data: loaded }: Route.MetaArgs) => [{ title: `${loaded?.product.title ?? 'Product'} · Store Admin` }]

function productId(params: { id: string }) {
	const parsed = recordId.safeParse(params.id)
	if (!parsed.success) throw data({ message: 'That product was not found.' }, { status: 404 })
	return parsed.data
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repo = adminRepositoriesFor(admin).products
	try {
		const [product, images] = await Promise.all([repo.get(productId(args.params)), repo.images()])
		return { product: { ...product, updatedAt: product.updatedAt.toISOString() }, images }
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

const STATUS_INTENTS = { publish: 'active', unpublish: 'draft', archive: 'archived' } as const

const confirmForm = formSchema({ confirm: z.literal('yes').optional() })

/**
 * Save the form, or one of publish / unpublish / archive / delete. Archive and delete
 * need the confirmation box ticked (works without JavaScript); delete is refused (409)
 * while an Order refers to the product.
 */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const id = productId(args.params)
	const repo = adminRepositoriesFor(admin).products
	const intent = new URL(args.request.url).searchParams.get('intent')
	try {
		if (!intent) {
			const form = await readProductForm(args.request)
			if (!form.ok) return data(form, { status: 400 })
			await repo.update(id, form.data)
			throw await redirectWithFlash(`/admin/products/${id}`, 'Product saved.')
		}
		const form = await parseForm(args.request, confirmForm)
		if (!form.ok) return data(form, { status: 400 })
		if ((intent === 'archive' || intent === 'delete') && !form.data.confirm) {
			return data(formFailure({ confirm: 'Tick the box to confirm.' }, `Tick the box to confirm you want to ${intent} this product.`), { status: 400 })
		}
		if (intent === 'delete') {
			await repo.delete(id)
			throw await redirectWithFlash('/admin/products', 'Product deleted.')
		}
		if (!(intent in STATUS_INTENTS)) return data(formFailure({}, 'Unknown action.'), { status: 400 })
		await repo.setStatus(id, STATUS_INTENTS[intent as keyof typeof STATUS_INTENTS])
		throw await redirectWithFlash(`/admin/products/${id}`, `Product ${intent === 'archive' ? 'archived' : intent === 'publish' ? 'published' : 'unpublished'}.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
	const { product, images } = loaderData
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/admin/products">Products</Link>
			</p>
			<h1>{product.title}</h1>
			<p>
				Status: <strong data-testid="product-status">{product.status}</strong>
				{product.status === 'active' ? (
					<>
						{' '}
						· <a href={`/products/${product.slug}`}>View in the store</a>
					</>
				) : null}
			</p>
			<ProductEditor values={product} images={images} errors={actionData?.fieldErrors ?? {}} formError={actionData?.formError} submitLabel="Save" />
			<div className="card wide danger-zone">
				<h2>Availability</h2>
				{product.status !== 'active' ? (
					<Form method="post" action="?intent=publish">
						<button type="submit">Publish</button>
					</Form>
				) : (
					<Form method="post" action="?intent=unpublish">
						<button type="submit" className="secondary">
							Unpublish
						</button>
					</Form>
				)}
				{(['archive', 'delete'] as const).map((intent) => (
					<Form method="post" action={`?intent=${intent}`} key={intent} className="confirm-form">
						<label>
							<input type="checkbox" name="confirm" value="yes" /> Yes, {intent} this product
						</label>
						<button type="submit" className="danger">
							{intent === 'archive' ? 'Archive' : 'Delete'}
						</button>
					</Form>
				))}
				<p className="hint">Products that orders refer to cannot be deleted; archive them instead.</p>
			</div>
		</section>
	)
}
