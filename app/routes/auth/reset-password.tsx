import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/reset-password'
import { PASSWORD_TOO_WEAK } from '../../auth/account-rules.server'
import { resetPassword } from '../../auth/credentials.server'
import { getConfig } from '../../config/env.server'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Choose a new password' }]
export const headers = refusalHeaders

const notOffered = () => data({ message: 'This store offers no password reset by email.' }, { status: 404 })
const TOKEN = z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'This link is not valid.')

export async function loader(args: Route.LoaderArgs) {
	if (!getConfig().passwordRecovery) throw notOffered()
	const token = TOKEN.safeParse(new URL(args.request.url).searchParams.get('token') ?? '')
	if (!token.success) throw data({ message: 'This reset link is not valid. Ask for a new one.' }, { status: 400 })
	return { token: token.data }
}

const resetForm = formSchema({ token: TOKEN, newPassword: fields.password })

/** [R21] A new password for the token's account (the strength rules apply); every session of it ends. */
export async function action(args: Route.ActionArgs) {
	if (!getConfig().passwordRecovery) throw notOffered()
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const form = await parseForm(args.request, resetForm)
	if (!form.ok) return data(form, { status: 400 })
	const result = await resetPassword({ token: form.data.token, newPassword: form.data.newPassword, request: args.request })
	if (!result.ok) {
		if (result.code === PASSWORD_TOO_WEAK) return data(formFailure({ newPassword: `Choose a stronger password. ${result.message}` }), { status: 400 })
		return data(formFailure({}, 'This reset link has expired or was already used. Ask for a new one.'), { status: 400 })
	}
	throw await redirectWithFlash('/sign-in', 'Password changed: sign in with it. Every session of the account was signed out.')
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const errors = actionData && !actionData.ok ? actionData : undefined
	return (
		<section className="card">
			<h1>Choose a new password</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				<input type="hidden" name="token" value={loaderData.token} />
				<Field name="newPassword" label="New password" type="password" autoComplete="new-password" required error={errors?.fieldErrors.newPassword} />
				<button type="submit" disabled={pending}>
					Set the new password
				</button>
			</Form>
		</section>
	)
}
