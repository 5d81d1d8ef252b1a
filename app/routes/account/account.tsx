import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/account'
import { requireUser } from '../../auth/guards.server'
import { userRepositoriesFor } from '../../repositories.server'
import { fields, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Your account' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await requireUser(args)
	const profile = await userRepositoriesFor(viewer).account.profile()
	return { ...profile, createdAt: profile.createdAt.toISOString() }
}

const profileForm = formSchema({ name: fields.name })

export async function action(args: Route.ActionArgs) {
	const viewer = await requireUser(args)
	const form = await parseForm(args.request, profileForm)
	if (!form.ok) return data(form, { status: 400 })
	await userRepositoriesFor(viewer).account.updateProfile(form.data)
	throw await redirectWithFlash('/account', 'Your name has been saved.')
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	return (
		<section className="card">
			<h1>Your account</h1>
			<dl>
				<dt>Email</dt>
				<dd data-testid="account-email">{loaderData.email}</dd>
				<dt>Member since</dt>
				<dd>{loaderData.createdAt.slice(0, 10)}</dd>
			</dl>
			<Form method="post" noValidate>
				<FormError message={actionData?.formError} />
				<Field name="name" label="Name" defaultValue={loaderData.name} required error={actionData?.fieldErrors.name} />
				<button type="submit" disabled={pending}>
					{pending ? 'Saving…' : 'Save'}
				</button>
			</Form>
			<h2>Security</h2>
			<p>
				<Link to="/account/password">Change your password</Link>
			</p>
			<p>
				<Link to="/account/security">Your sessions: see and sign out devices</Link>
			</p>
		</section>
	)
}
