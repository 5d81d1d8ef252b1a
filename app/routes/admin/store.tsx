import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/store'
import { requireAdmin } from '../../auth/guards.server'
import { repositoriesFor } from '../../data/repositories.server'
import { fields, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { Field, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Store profile · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return repositoriesFor(admin).store.profile()
}

/** The Store edited is the session's Store; a `storeId` in the body is refused (400). */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, { name: fields.name })
	if (!form.ok) return data(form, { status: 400 })
	await repositoriesFor(admin).store.updateProfile(form.data)
	throw await redirectWithFlash('/admin/store', 'Store profile saved.')
}

export default function StoreProfile({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	return (
		<section>
			<h1>Store profile</h1>
			<Form method="post" noValidate>
				<FormError message={actionData?.formError} />
				<Field
					name="name"
					label="Store name"
					defaultValue={loaderData.name}
					required
					error={actionData?.fieldErrors.name}
				/>
				<button type="submit" disabled={pending}>
					{pending ? 'Saving…' : 'Save'}
				</button>
			</Form>
		</section>
	)
}
