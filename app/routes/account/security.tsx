import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/security'
import { requireUser } from '../../auth/guards.server'
import { userRepositoriesFor } from '../../data/repositories.server'
import { formFailure, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Sessions and security' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await requireUser(args)
	const { sessions } = userRepositoriesFor(viewer)
	await sessions.touch()
	return { sessions: await sessions.list() }
}

const sessionId = z.string().min(1).max(128)

/** Issue 10.5: sign out one session of your own, or every one but this. */
export async function action(args: Route.ActionArgs) {
	const viewer = await requireUser(args)
	const form = await parseForm(args.request, {
		intent: z.enum(['revoke', 'revoke-others']),
		sessionId: sessionId.optional(),
	})
	if (!form.ok) return data(form, { status: 400 })
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

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const others = loaderData.sessions.filter((s) => !s.current)
	return (
		<section className="card">
			<h1>Sessions</h1>
			<FormError message={actionData && !actionData.ok ? (actionData.formError ?? actionData.fieldErrors.sessionId) : undefined} />
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
		</section>
	)
}
