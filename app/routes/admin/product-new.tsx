import { data } from 'react-router'
import type { Route } from './+types/product-new'
import { requireAdmin } from '../../auth/guards.server'
import { MAX_PRODUCT_IMAGES } from '../../catalog/product-images.server'
import { getConfig } from '../../config/env.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formFailure } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { ProductEditor } from '../../ui/product-editor'
import { receiveForm, UploadError } from '../../uploads/intake.server'
import { PRODUCT_FORM_FIELDS, readProductFields, readProductForm } from './product-form.server'

export const meta = () => [{ title: 'New product · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	await requireAdmin(args)
	return { maxImages: Math.min(MAX_PRODUCT_IMAGES, getConfig().uploads.maxFiles), maxFileBytes: getConfig().uploads.maxFileBytes }
}

const imageFailure = (error: UploadError) => data(formFailure({ images: error.message }, error.message), { status: error.status, headers: error.headers })

/**
 * The new product, its variants and its first images in one form [R112, R121]: a multipart form
 * (url-encoded without images works too). Everything is checked before anything is kept: the
 * fields, then every image's bytes; then the product is created and its images stored and added.
 */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const repos = adminRepositoriesFor(admin)
	let files: Buffer[] = []
	let form: Awaited<ReturnType<typeof readProductForm>>
	if (/^multipart\/form-data\s*;/i.test(args.request.headers.get('content-type') ?? '')) {
		const { maxFileBytes, maxFiles } = getConfig().uploads
		try {
			const received = await receiveForm(args.request, {
				maxFileBytes,
				maxFiles: Math.min(MAX_PRODUCT_IMAGES, maxFiles),
				maxFields: PRODUCT_FORM_FIELDS,
				maxFieldBytes: 4096,
			})
			files = received.files
			form = readProductFields(received.fields)
		} catch (error) {
			if (error instanceof UploadError) return imageFailure(error)
			throw error
		}
	} else form = await readProductForm(args.request)
	if (!form.ok) return data(form, { status: 400 })
	try {
		await repos.uploads.checkAll(files)
		const product = await repos.products.create(form.data)
		if (files.length > 0) {
			try {
				await repos.productImages.add(product.id, await repos.uploads.storeAll(files))
			} catch (error) {
				if (!(error instanceof UploadError)) throw error
				// The product is made; only its images wait for the storage to come back.
				throw await redirectWithFlash(
					`/admin/products/${product.id}#images`,
					`Product “${form.data.title}” created, but its images were not stored: ${error.message}`,
				)
			}
		}
		const added = files.length === 0 ? 'Add its images below.' : `${files.length} ${files.length === 1 ? 'image' : 'images'} added.`
		throw await redirectWithFlash(`/admin/products/${product.id}`, `Product “${form.data.title}” created. ${added}`)
	} catch (error) {
		if (error instanceof Response) throw error
		if (error instanceof UploadError) return imageFailure(error)
		return domainFailure(error)
	}
}

export default function NewProduct({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<section>
			<h1>New product</h1>
			<ProductEditor errors={actionData?.fieldErrors ?? {}} formError={actionData?.formError} submitLabel="Create product" newImages={loaderData} />
		</section>
	)
}
