import { data, Form, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/password'
import { PASSWORD_TOO_WEAK } from '../../auth/account-rules.server'
import { changePassword } from '../../auth/credentials.server'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { requireUser } from '../../auth/guards.server'
import { safeRedirect } from '../../auth/safe-redirect'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Change your password' }]

export async function loader(args: Route.LoaderArgs) {
	await requireUser(args)
	return null
}

const passwordForm = formSchema({
	currentPassword: fields.currentPassword,
	newPassword: fields.password,
	redirectTo: fields.redirectTo,
})

/**
 * [R26] the current password, then a new one that passes the strength rules
 * (the same ones as sign-up). Success ends every other session of the user and keeps
 * this browser signed in with a fresh session.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	await requireUser(args)
	const form = await parseForm(args.request, passwordForm)
	if (!form.ok) return data(form, { status: 400 })
	const { currentPassword, newPassword, redirectTo } = form.data
	if (currentPassword === newPassword) {
		return data(formFailure({ newPassword: 'Choose a password different from the current one.' }), { status: 400 })
	}
	const result = await changePassword({ currentPassword, newPassword, request: args.request })
	if (!result.ok) {
		if (result.code === PASSWORD_TOO_WEAK) {
			return data(formFailure({ newPassword: `Choose a stronger password. ${result.message}` }), { status: 400 })
		}
		if (result.code === 'INVALID_PASSWORD') {
			return data(formFailure({ currentPassword: 'This is not your current password.' }), { status: 400 })
		}
		return data(formFailure({}, 'The password could not be changed. Try again.'), { status: result.status >= 500 ? 500 : 400 })
	}
	// Back where the change was asked from (Store Admin links here with ?redirectTo=/admin).
	throw await redirectWithFlash(safeRedirect(redirectTo, '/account'), 'Password changed. Every other session has been signed out.', {
		headers: result.headers,
	})
}

export default function ChangePassword({ actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const redirectTo = useSearchParams()[0].get('redirectTo') ?? ''
	return (
		<section className="card">
			<h1>Change your password</h1>
			<Form method="post" noValidate>
				<FormError message={actionData?.formError} />
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<Field
					name="currentPassword"
					label="Current password"
					type="password"
					autoComplete="current-password"
					required
					error={actionData?.fieldErrors.currentPassword}
				/>
				<Field
					name="newPassword"
					label="New password (8 to 128 characters)"
					type="password"
					autoComplete="new-password"
					required
					error={actionData?.fieldErrors.newPassword}
				/>
				<p className="hint">Common or easily guessed passwords are refused. Changing it signs out your other devices.</p>
				<button type="submit" disabled={pending}>
					{pending ? 'Changing…' : 'Change password'}
				</button>
			</Form>
		</section>
	)
}
