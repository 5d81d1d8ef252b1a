import { data, Form, Link } from 'react-router'
import type { Route } from './+types/discount-new'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormError } from '../../ui/forms'
import { DiscountFields } from './discount-fields'
import { parseDiscountForm } from './discount-form.server'

export const meta = () => [{ title: 'New discount · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	await requireAdmin(args)
	return null
}

export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseDiscountForm(args.request)
	if (!form.ok) return data(form, { status: 400 })
	try {
		const created = await adminRepositoriesFor(admin).discounts.create(form.data)
		throw await redirectWithFlash('/admin/discounts', `Discount ${created.code} created.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function NewDiscount({ actionData }: Route.ComponentProps) {
	return (
		<section>
			<p>
				<Link to="/admin/discounts">← Discounts</Link>
			</p>
			<h1>New discount</h1>
			<Form method="post" noValidate className="card wide">
				<FormError message={actionData?.formError} />
				<DiscountFields values={null} errors={actionData?.fieldErrors ?? {}} />
				<button type="submit">Create discount</button>
			</Form>
		</section>
	)
}
