import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/sign-up'
import { PASSWORD_TOO_WEAK } from '../../auth/account-rules.server'
import { signUpWithEmail } from '../../auth/credentials.server'
import { requireGuest } from '../../auth/guards.server'
import { safeRedirect, withRedirect } from '../../auth/safe-redirect'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { Field, FormError, Honeypot } from '../../ui/forms'

export const meta = () => [{ title: 'Create an account' }]

export async function loader(args: Route.LoaderArgs) {
	const redirectTo = new URL(args.request.url).searchParams.get('redirectTo')
	await requireGuest(args, safeRedirect(redirectTo, ''))
	return null
}

const signUpForm = formSchema({
	name: fields.name,
	email: fields.email,
	password: fields.password,
	redirectTo: fields.redirectTo,
})

export async function action({ request, context }: Route.ActionArgs) {
	const limited = rateLimitedForm(context)
	if (limited) return limited
	const form = await parseForm(request, signUpForm)
	if (!form.ok) return data(form, { status: 400 })

	const { redirectTo, ...account } = form.data
	const result = await signUpWithEmail({ ...account, request })
	if (!result.ok) {
		if (result.code === PASSWORD_TOO_WEAK) {
			return data(formFailure({ password: `Choose a stronger password. ${result.message}` }), { status: 400 })
		}
		const taken = result.code.includes('ALREADY_EXISTS')
		const failure = taken
			? formFailure({ email: 'This email cannot be used to register. Try signing in.' })
			: formFailure({}, 'The account could not be created. Check the fields and try again.')
		return data(failure, { status: taken ? 409 : 400 })
	}
	throw redirect(safeRedirect(redirectTo, '/account'), { headers: result.headers })
}

export default function SignUp({ actionData }: Route.ComponentProps) {
	const redirectTo = useSearchParams()[0].get('redirectTo') ?? ''
	const pending = useNavigation().state === 'submitting'
	const errors = actionData && !actionData.ok ? actionData : undefined
	return (
		<section className="card">
			<h1>Create an account</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				<Field name="name" label="Name" autoComplete="name" required error={errors?.fieldErrors.name} />
				<Field name="email" label="Email" type="email" autoComplete="email" required error={errors?.fieldErrors.email} />
				<Field
					name="password"
					label="Password (8 to 128 characters)"
					type="password"
					autoComplete="new-password"
					required
					error={errors?.fieldErrors.password}
				/>
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<Honeypot />
				<button type="submit" disabled={pending}>
					{pending ? 'Creating account…' : 'Create account'}
				</button>
			</Form>
			<p>
				Already registered? <Link to={withRedirect('/sign-in', redirectTo)}>Sign in</Link>
			</p>
			<p className="hint">There is no password recovery yet: keep your password somewhere safe.</p>
		</section>
	)
}
