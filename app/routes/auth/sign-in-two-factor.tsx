import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/sign-in-two-factor'
import { homeAfterSignIn } from '../../auth/home'
import { requireGuest } from '../../auth/guards.server'
import { safeRedirect, withRedirect } from '../../auth/safe-redirect'
import { clearedChallengeCookie, hasTwoFactorChallenge, TWO_FACTOR_RESTART, verifySignInCode } from '../../auth/two-factor-flow.server'
import { TWO_FACTOR_PATH } from '../../auth/two-factor-paths'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { Field, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Two-factor sign-in' }]

/** The lock's own Retry-After and X-RateLimit-Reset reach the page [R51]. */
export const headers = refusalHeaders

export const WRONG_CODE = 'That code is not right.'
export const LOCKED_MESSAGE = 'Too many wrong codes for this account. Wait a few minutes, then sign in again.'

const CODE_RULES = {
	totp: { pattern: /^\d{6}$/, message: 'Enter the 6-digit code from your authenticator app' },
	backup: { pattern: /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/, message: 'Enter a backup code, like abcde-12345' },
} as const

/** the code step after a correct password, only while better-auth's challenge cookie exists. */
export async function loader(args: Route.LoaderArgs) {
	const redirectTo = new URL(args.request.url).searchParams.get('redirectTo') ?? ''
	await requireGuest(args, safeRedirect(redirectTo, ''))
	if (!(await hasTwoFactorChallenge(args.request))) throw redirect(withRedirect('/sign-in', redirectTo))
	return null
}

const codeForm = formSchema({
	method: z.enum(['totp', 'backup']),
	code: z.string().trim().max(32, 'That is too long for a code'),
	redirectTo: fields.redirectTo,
})

export async function action({ request, context }: Route.ActionArgs) {
	const limited = rateLimitedForm(context)
	if (limited) return limited
	const form = await parseForm(request, codeForm)
	if (!form.ok) return data(form, { status: 400 })
	const { method, code, redirectTo } = form.data
	const restart = `/sign-in?${new URLSearchParams({ error: TWO_FACTOR_RESTART, redirectTo: safeRedirect(redirectTo, '') })}`
	if (!(await hasTwoFactorChallenge(request))) throw redirect(restart)
	// Checked here first: a malformed code costs no attempt and changes nothing.
	if (!CODE_RULES[method].pattern.test(code)) return data(formFailure({ code: CODE_RULES[method].message }), { status: 400 })

	const result = await verifySignInCode({ method, code, request })
	if (result.ok) throw redirect(safeRedirect(redirectTo, homeAfterSignIn(result.response)), { headers: result.headers })
	if (result.reason === 'restart') {
		const headers = new Headers(result.headers)
		headers.append('Set-Cookie', await clearedChallengeCookie())
		throw redirect(restart, { headers })
	}
	if (result.reason === 'locked') return data(formFailure({}, LOCKED_MESSAGE), { status: 429, headers: result.headers })
	return data(formFailure({ code: WRONG_CODE }), { status: 400, headers: result.headers })
}

export default function SignInTwoFactor({ actionData }: Route.ComponentProps) {
	const [params] = useSearchParams()
	const redirectTo = params.get('redirectTo') ?? ''
	const method = params.get('method') === 'backup' ? 'backup' : 'totp'
	const pending = useNavigation().state === 'submitting'
	const errors = actionData && !actionData.ok ? actionData : undefined
	const other = new URLSearchParams({ ...(redirectTo ? { redirectTo } : {}), ...(method === 'totp' ? { method: 'backup' } : {}) })
	return (
		<section className="card">
			<h1>Two-factor sign-in</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				{method === 'totp' ? (
					<Field
						name="code"
						label="Code from your authenticator app"
						inputMode="numeric"
						autoComplete="one-time-code"
						pattern="[0-9]{6}"
						maxLength={6}
						required
						error={errors?.fieldErrors.code}
					/>
				) : (
					<Field name="code" label="Backup code" autoComplete="off" maxLength={11} required error={errors?.fieldErrors.code} />
				)}
				<input type="hidden" name="method" value={method} />
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<button type="submit" disabled={pending}>
					{pending ? 'Checking…' : 'Verify'}
				</button>
			</Form>
			<p>
				<Link to={`${TWO_FACTOR_PATH}${other.size > 0 ? `?${other}` : ''}`}>
					{method === 'totp' ? 'Use a backup code instead' : 'Use a code from your app instead'}
				</Link>
			</p>
			<p className="hint">
				A backup code works once. <Link to={withRedirect('/sign-in', redirectTo)}>Start over</Link>
			</p>
		</section>
	)
}
