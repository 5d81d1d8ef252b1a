import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import type { Route } from './+types/sign-in'
import { homeAfterSignIn } from '../../auth/home'
import { signInWithEmail } from '../../auth/credentials.server'
import { requireGuest } from '../../auth/guards.server'
import { safeRedirect, withRedirect } from '../../auth/safe-redirect'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { countSignInAttempt, refusedSignInForm } from '../../security/rate-limit/account.server'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { Field, FormError, Honeypot } from '../../ui/forms'
import { getConfig } from '../../config/env.server'
import { managedSignInError } from '../../auth/sso-flow.server'
import { managedSignInButton } from '../../auth/sso.server'
import { ManagedSignIn } from '../../ui/managed-sign-in'
import { ENROLMENT_REQUIRED_MESSAGE, TWO_FACTOR_ENROLMENT_REQUIRED } from '../../auth/two-factor.server'
import { TWO_FACTOR_PATH, TWO_FACTOR_RESTART, TWO_FACTOR_RESTART_MESSAGE } from '../../auth/two-factor-flow.server'

export const meta = () => [{ title: 'Sign in' }]

// A per-account refusal carries its own window's Retry-After and X-RateLimit-* [R51].
export const headers = refusalHeaders

/** One message for every failed sign-in: it never tells whether the email has an account. */
export const SIGN_IN_FAILED = 'Invalid email or password.'

export async function loader(args: Route.LoaderArgs) {
	const redirectTo = new URL(args.request.url).searchParams.get('redirectTo')
	await requireGuest(args, safeRedirect(redirectTo, ''))
	// the managed sign-in button (only when it is on) and what its round trip said.
	const error = new URL(args.request.url).searchParams.get('error')
	// the code step ended (expired, forged or too many wrong codes): start over.
	const recovery = getConfig().passwordRecovery
	if (error === TWO_FACTOR_RESTART) {
		return { sso: managedSignInButton(getConfig()), ssoError: null, notice: TWO_FACTOR_RESTART_MESSAGE, recovery }
	}
	return { sso: managedSignInButton(getConfig()), ssoError: managedSignInError(error), notice: null, recovery }
}

const signInForm = formSchema({
	email: fields.email,
	password: fields.currentPassword,
	redirectTo: fields.redirectTo,
})

export async function action({ request, context }: Route.ActionArgs) {
	const limited = rateLimitedForm(context)
	if (limited) return limited
	const form = await parseForm(request, signInForm)
	if (!form.ok) return data(form, { status: 400 })

	const { email, password, redirectTo } = form.data
	// Failures per account and client, per account from new browsers, per known browser [R53, R55].
	const attempt = await countSignInAttempt(email, request)
	if (attempt.refused) return refusedSignInForm(attempt.refused)
	const result = await signInWithEmail({ email, password, request })
	if (!result.ok) {
		// the password was right, but the Store requires an admin's second factor first.
		if (result.code === TWO_FACTOR_ENROLMENT_REQUIRED) {
			return data(formFailure({}, ENROLMENT_REQUIRED_MESSAGE), { status: 403, headers: result.headers })
		}
		return data(formFailure({}, SIGN_IN_FAILED), { status: 401 })
	}
	// This browser is one the account signed in from: its own budget from now on [R55].
	result.headers.append('Set-Cookie', await attempt.succeeded())
	// No session yet: better-auth set its two_factor cookie and waits for a code.
	if (result.twoFactorRedirect) throw redirect(withRedirect(TWO_FACTOR_PATH, redirectTo ?? ''), { headers: result.headers })
	throw redirect(safeRedirect(redirectTo, homeAfterSignIn(result.response)), { headers: result.headers })
}

export default function SignIn({ actionData, loaderData }: Route.ComponentProps) {
	const redirectTo = useSearchParams()[0].get('redirectTo') ?? ''
	const pending = useNavigation().state === 'submitting'
	const errors = actionData && !actionData.ok ? actionData : undefined
	return (
		<section className="card">
			<h1>Sign in</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError ?? loaderData?.notice ?? undefined} />
				<Field name="email" label="Email" type="email" autoComplete="email" required error={errors?.fieldErrors.email} />
				<Field name="password" label="Password" type="password" autoComplete="current-password" required error={errors?.fieldErrors.password} />
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<Honeypot />
				<button type="submit" disabled={pending}>
					{pending ? 'Signing in…' : 'Sign in'}
				</button>
			</Form>
			<ManagedSignIn sso={loaderData?.sso ?? null} error={loaderData?.ssoError ?? null} redirectTo={redirectTo} />
			<p>
				New here? <Link to={withRedirect('/sign-up', redirectTo)}>Create an account</Link>
			</p>
			{loaderData?.recovery ? (
				<p>
					<Link to="/forgot-password">Forgot password?</Link>
				</p>
			) : (
				<p className="hint">This store offers no password reset by email: ask the store if you forgot yours.</p>
			)}
		</section>
	)
}
