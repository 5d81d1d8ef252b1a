import { data } from 'react-router'
import type { Route } from './+types/product-new'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { ProductEditor } from '../../ui/product-editor'
import { readProductForm } from './product-form.server'
import { domainFailure } from '../../security/form.server'

export const meta = () => [{ title: 'New product · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	await requireAdmin(args)
	return null
}

export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await readProductForm(args.request)
	if (!form.ok) return data(form, { status: 400 })
	try {
		const product = await adminRepositoriesFor(admin).products.create(form.data)
		throw await redirectWithFlash(`/admin/products/${product.id}`, `Product “${form.data.title}” created. Add its images below.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function NewProduct({ actionData }: Route.ComponentProps) {
	return (
		<section>
			<h1>New product</h1>
			<p className="hint">Images are added once the product is created, on its page.</p>
			<ProductEditor errors={actionData?.fieldErrors ?? {}} formError={actionData?.formError} submitLabel="Create product" />
		</section>
	)
}
