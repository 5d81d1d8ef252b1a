import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/forgot-password'
import { requestPasswordReset } from '../../auth/credentials.server'
import { requireGuest } from '../../auth/guards.server'
import { getConfig } from '../../config/env.server'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { Field, FormError, Honeypot } from '../../ui/forms'

export const meta = () => [{ title: 'Forgot password' }]
export const headers = refusalHeaders

const notOffered = () => data({ message: 'This store offers no password reset by email.' }, { status: 404 })

export async function loader(args: Route.LoaderArgs) {
	if (!getConfig().passwordRecovery) throw notOffered()
	await requireGuest(args, '/account')
	return null
}

const forgotForm = formSchema({ email: fields.email })

/**
 * [R21] Only when PASSWORD_RECOVERY=on and mail is sent. The answer is the same for every
 * address, known or not (no account enumeration), also once the address's reset mails for the
 * hour are spent [R28]; the Authentication limit applies [R50].
 */
export async function action(args: Route.ActionArgs) {
	if (!getConfig().passwordRecovery) throw notOffered()
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const form = await parseForm(args.request, forgotForm)
	if (!form.ok) return data(form, { status: 400 })
	const result = await requestPasswordReset({ email: form.data.email, request: args.request })
	if (!result.ok && result.status >= 500) return data(formFailure({}, 'The request could not be sent. Try again in a moment.'), { status: 503 })
	return { ok: true as const }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData?.ok) {
		return (
			<section className="card">
				<h1>Check your inbox</h1>
				<p data-testid="reset-requested">
					If an account uses that address, a link to choose a new password is on its way. It works once, for 30 minutes, and choosing a new password ends every
					other link sent before. An address gets a few links an hour at most: if none arrives, look in the spam folder before asking again.
				</p>
			</section>
		)
	}
	const errors = actionData && !actionData.ok ? actionData : undefined
	return (
		<section className="card">
			<h1>Forgot password</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				<Field name="email" label="Email" type="email" autoComplete="email" required error={errors?.fieldErrors.email} />
				<Honeypot />
				<button type="submit" disabled={pending}>
					Send me a link
				</button>
			</Form>
		</section>
	)
}
