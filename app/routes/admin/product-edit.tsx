import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/product-edit'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { DomainError } from '../../errors.server'
import { domainFailure, formFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormAnswer, FormError, answerTo, unclaimedError } from '../../ui/forms'
import { ProductEditor } from '../../ui/product-editor'
import { ProductGalleryEditor } from '../../ui/product-gallery-editor'
import { MAX_PRODUCT_IMAGES } from '../../catalog/product-images.server'
import { getConfig } from '../../config/env.server'
import type { AdminViewer } from '../../data/viewer'
import { receiveFiles, UploadError } from '../../uploads/intake.server'
import { OBJECT_KEY } from '../../uploads/storage/storage'
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
		const repos = adminRepositoriesFor(admin)
		const id = productId(args.params)
		const [product, images, uploads] = await Promise.all([repo.get(id), repos.productImages.list(id), repo.images()])
		const shown = new Set(images.map((image) => image.key))
		return {
			product: { ...product, updatedAt: product.updatedAt.toISOString() },
			images,
			uploads: uploads.filter((upload) => !shown.has(upload.key)),
			maxImages: MAX_PRODUCT_IMAGES,
			maxFileBytes: getConfig().uploads.maxFileBytes,
		}
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

const STATUS_INTENTS = { publish: 'active', unpublish: 'draft', archive: 'archived' } as const

const confirmForm = formSchema({ confirm: z.literal('yes').optional() })
const imageForm = formSchema({ key: z.string().regex(OBJECT_KEY, 'Choose an uploaded image') })
const moveImageForm = formSchema({ key: z.string().regex(OBJECT_KEY, 'Choose an uploaded image'), direction: z.enum(['up', 'down']) })

/** [R112] The gallery's own actions: upload (multipart, the same intake as POST /api/upload), add, move, remove. */
async function imageAction(args: Route.ActionArgs, admin: AdminViewer, id: string, intent: string) {
	const repos = adminRepositoriesFor(admin)
	const back = `/admin/products/${id}#images`
	if (intent === 'upload-images') {
		const shown = (await repos.productImages.list((await repos.products.get(id)).id)).length
		const { maxFileBytes, maxFiles } = getConfig().uploads
		try {
			const files = await receiveFiles(args.request, { maxFileBytes, maxFiles })
			if (shown + files.length > MAX_PRODUCT_IMAGES) {
				const message = `A product has at most ${MAX_PRODUCT_IMAGES} images: ${MAX_PRODUCT_IMAGES - shown} more can be added.`
				return data({ ...formFailure({ images: message }, message), ...IMAGES }, { status: 400 })
			}
			const stored = await repos.uploads.storeAll(files)
			await repos.productImages.add(id, stored)
			return redirectWithFlash(back, `${stored.length} ${stored.length === 1 ? 'image' : 'images'} added.`)
		} catch (error) {
			if (error instanceof UploadError)
				return data({ ...formFailure({ images: error.message }, error.message), ...IMAGES }, { status: error.status, headers: error.headers })
			throw error
		}
	}
	if (intent === 'move-image') {
		const form = await parseForm(args.request, moveImageForm)
		if (!form.ok) return data({ ...form, ...IMAGES }, { status: 400 })
		await repos.productImages.move(id, form.data.key, form.data.direction)
		return redirectWithFlash(back, 'Image moved.')
	}
	const form = await parseForm(args.request, imageForm)
	if (!form.ok) return data({ ...form, ...IMAGES }, { status: 400 })
	if (intent === 'add-image') {
		await repos.productImages.add(id, [{ key: form.data.key, width: null, height: null }])
		return redirectWithFlash(back, 'Image added.')
	}
	await repos.productImages.remove(id, form.data.key)
	return redirectWithFlash(back, 'Image removed from the product.')
}

const IMAGE_INTENTS = new Set(['upload-images', 'move-image', 'add-image', 'remove-image'])

/**
 * Which of the page's forms an answer is to, so its errors show beside it [R130]: the details
 * (no intent), the gallery's (an image intent), or availability's (publish, archive, delete).
 */
const PRODUCT_FORMS = ['details', 'images', 'availability'] as const
const IMAGES = { form: 'images' }

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
	const sent = { form: !intent ? 'details' : IMAGE_INTENTS.has(intent) ? 'images' : 'availability' }
	try {
		if (intent && IMAGE_INTENTS.has(intent)) {
			const answer = await imageAction(args, admin, id, intent)
			if (answer instanceof Response) throw answer
			return answer
		}
		if (!intent) {
			const form = await readProductForm(args.request)
			if (!form.ok) return data({ ...form, form: 'details' }, { status: 400 })
			await repo.update(id, form.data)
			throw await redirectWithFlash(`/admin/products/${id}`, 'Product saved.')
		}
		const form = await parseForm(args.request, confirmForm)
		if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
		if ((intent === 'archive' || intent === 'delete') && !form.data.confirm) {
			return data(
				{ ...formFailure({ confirm: 'Tick the box to confirm.' }, `Tick the box to confirm you want to ${intent} this product.`), ...sent },
				{ status: 400 },
			)
		}
		if (intent === 'delete') {
			await repo.delete(id)
			throw await redirectWithFlash('/admin/products', 'Product deleted.')
		}
		if (!(intent in STATUS_INTENTS)) return data({ ...formFailure({}, 'Unknown action.'), form: null }, { status: 400 })
		await repo.setStatus(id, STATUS_INTENTS[intent as keyof typeof STATUS_INTENTS])
		throw await redirectWithFlash(`/admin/products/${id}`, `Product ${intent === 'archive' ? 'archived' : intent === 'publish' ? 'published' : 'unpublished'}.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error, sent)
	}
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
	const { product, images, uploads, maxImages, maxFileBytes } = loaderData
	const answer = (form: (typeof PRODUCT_FORMS)[number]) => answerTo(actionData, form)
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
			{/* A refusal that names none of the page's forms (an unknown intent) shows here. */}
			<FormError message={unclaimedError(actionData, PRODUCT_FORMS)} />
			<ProductEditor
				action={`/admin/products/${product.id}`}
				values={product}
				images={images}
				errors={answer('details')?.fieldErrors ?? {}}
				formError={answer('details')?.formError}
				submitLabel="Save"
			/>
			<ProductGalleryEditor
				title={product.title}
				images={images}
				uploads={uploads}
				max={maxImages}
				maxFileBytes={maxFileBytes}
				error={answer('images')?.fieldErrors?.images ?? answer('images')?.formError}
			/>
			<div className="card wide danger-zone" data-testid="availability">
				<h2>Availability</h2>
				<FormAnswer answer={answer('availability')} />
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
