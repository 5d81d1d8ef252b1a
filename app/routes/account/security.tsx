import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/security'
import { totpQrDataUrl } from '../../auth/totp-qr.server'
import { requireUser } from '../../auth/guards.server'
import { confirmEnrolment, disableTwoFactor, startEnrolment } from '../../auth/two-factor-flow.server'
import { userRepositoriesFor } from '../../repositories.server'
import type { UserViewer } from '../../data/viewer'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormError } from '../../ui/forms'
import { type Enrolment, TwoFactorSection } from '../../ui/two-factor-section'

export const meta = () => [{ title: 'Sessions and security' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await requireUser(args)
	const { sessions } = userRepositoriesFor(viewer)
	await sessions.touch()
	const { account } = userRepositoriesFor(viewer)
	return { sessions: await sessions.list(), twoFactor: await account.twoFactorStatus() }
}

const sessionId = z.string().min(1).max(128)

const TWO_FACTOR_INTENTS = ['enable-2fa', 'confirm-2fa', 'disable-2fa'] as const

const securityForm = formSchema({
	intent: z.enum(['revoke', 'revoke-others', ...TWO_FACTOR_INTENTS]),
	sessionId: sessionId.optional(),
	password: fields.currentPassword.optional(),
	code: z.string().trim().max(32).optional(),
})

/** [R26] sign out one session of your own, or every one but this; and two-factor sign-in. */
export async function action(args: Route.ActionArgs) {
	const viewer = await requireUser(args)
	const form = await parseForm(args.request, securityForm)
	if (!form.ok) return data(form, { status: 400 })
	const { intent } = form.data
	if (intent === 'enable-2fa' || intent === 'confirm-2fa' || intent === 'disable-2fa') {
		return twoFactorAction({ viewer, request: args.request, intent, password: form.data.password, code: form.data.code })
	}
	const { sessions } = userRepositoriesFor(viewer)
	if (form.data.intent === 'revoke-others') {
		const count = await sessions.revokeOthers()
		throw await redirectWithFlash('/account/security', `Signed out ${count} other session${count === 1 ? '' : 's'}.`)
	}
	if (!form.data.sessionId) return data(formFailure({ sessionId: 'Choose a session' }), { status: 400 })
	// Another user's session, an unknown id, or this very session: nothing changes.
	if (!(await sessions.revoke(form.data.sessionId))) {
		return data(formFailure({}, 'That session is not one of your other sessions.'), { status: 404 })
	}
	throw await redirectWithFlash('/account/security', 'That session has been signed out.')
}

type TwoFactorActionData = { intent: string; enrolment?: Enrolment; fieldErrors?: Record<string, string>; formError?: string }

const noStore = { 'Cache-Control': 'no-store' }

async function twoFactorAction({
	viewer,
	request,
	intent,
	password,
	code,
}: {
	viewer: UserViewer
	request: Request
	intent: (typeof TWO_FACTOR_INTENTS)[number]
	password?: string
	code?: string
}) {
	const fail = (fieldErrors: Record<string, string>, formError?: string, status = 400) =>
		data({ ...formFailure(fieldErrors, formError), intent }, { status, headers: noStore })
	if (intent === 'confirm-2fa') {
		if (!code || !/^\d{6}$/.test(code)) return fail({ code: 'Enter the 6-digit code from your app' })
		const confirmed = await confirmEnrolment({ code, request })
		if (!confirmed.ok) return fail({ code: 'That code is not right.' })
		// better-auth replaced this browser's session when the factor was turned on: forward the new cookie.
		throw await redirectWithFlash('/account/security', 'Two-factor sign-in is on.', { headers: confirmed.headers })
	}
	if (!password) return fail({ password: 'Enter your password' })
	if (intent === 'disable-2fa') {
		const disabled = await disableTwoFactor({ password, request })
		if (!disabled.ok) {
			if (disabled.code === 'INVALID_PASSWORD') return fail({ password: 'That password is not right.' })
			return fail({}, disabled.message || 'Two-factor sign-in could not be turned off.')
		}
		throw await redirectWithFlash('/account/security', 'Two-factor sign-in is off.', { headers: disabled.headers })
	}
	const { store } = userRepositoriesFor(viewer)
	const started = await startEnrolment({ password, issuer: (await store.profile()).name, request })
	if (!started.ok) {
		if (started.code === 'INVALID_PASSWORD') return fail({ password: 'That password is not right.' })
		return fail({}, started.message || 'Two-factor sign-in could not be set up.')
	}
	// Shown once, in this response only (never cached, never stored for later display).
	return data(
		{
			ok: true as const,
			intent,
			enrolment: { secret: started.secret, totpURI: started.totpURI, qr: await totpQrDataUrl(started.totpURI), backupCodes: started.backupCodes },
		},
		{ headers: noStore },
	)
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const others = loaderData.sessions.filter((s) => !s.current)
	// The two-factor forms answer with their `intent`, so their messages land beside their own form.
	const twoFactorResult = actionData && 'intent' in actionData ? (actionData as TwoFactorActionData) : undefined
	return (
		<section className="card">
			<h1>Sessions</h1>
			<FormError message={actionData && !actionData.ok && !twoFactorResult ? (actionData.formError ?? actionData.fieldErrors.sessionId) : undefined} />
			<table data-testid="sessions">
				<thead>
					<tr>
						<th>Device</th>
						<th>Address</th>
						<th>Last active</th>
						<th />
					</tr>
				</thead>
				<tbody>
					{loaderData.sessions.map((session) => (
						<tr key={session.id} data-current={session.current ? 'true' : undefined}>
							<td>{session.device}</td>
							<td>{session.address}</td>
							<td>
								<time dateTime={session.lastSeenAt}>{session.lastSeenAt.slice(0, 16).replace('T', ' ')} UTC</time>
							</td>
							<td>
								{session.current ? (
									<strong>This device</strong>
								) : (
									<Form method="post">
										<input type="hidden" name="intent" value="revoke" />
										<input type="hidden" name="sessionId" value={session.id} />
										<button type="submit" disabled={pending}>
											Sign out
										</button>
									</Form>
								)}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			{others.length > 0 ? (
				<Form method="post">
					<input type="hidden" name="intent" value="revoke-others" />
					<button type="submit" disabled={pending}>
						Sign out everywhere else
					</button>
				</Form>
			) : (
				<p className="hint">You are signed in on this device only.</p>
			)}
			<TwoFactorSection
				status={loaderData.twoFactor}
				enrolment={twoFactorResult?.enrolment}
				errors={twoFactorResult?.fieldErrors ? { ...twoFactorResult, fieldErrors: twoFactorResult.fieldErrors } : undefined}
				pending={pending}
			/>
		</section>
	)
}
