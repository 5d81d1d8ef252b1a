import { data, Form } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/email'
import { requireAdmin } from '../../auth/guards.server'
import { OUTBOX_STATUSES, type OutboxStatus } from '../../email/statuses'
import { sendingConfigured } from '../../email/outbox.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { StateLinks } from '../../ui/admin-list'
import { Email } from '../../ui/email'
import { MailBadge } from '../../ui/badge'

export const meta = () => [{ title: 'Email · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const asked = new URL(args.request.url).searchParams.get('status')
	const status = OUTBOX_STATUSES.includes(asked as OutboxStatus) ? (asked as OutboxStatus) : undefined
	const { mails, counts } = await adminRepositoriesFor(admin).outbox.page({ status })
	return {
		configured: sendingConfigured(),
		status: status ?? null,
		counts,
		mails: mails.map((mail) => ({
			...mail,
			createdAt: mail.createdAt.toISOString(),
			sentAt: mail.sentAt?.toISOString() ?? null,
			nextAttemptAt: mail.nextAttemptAt.toISOString(),
		})),
	}
}

const resendForm = formSchema({ intent: z.literal('resend', 'Unknown action'), id: z.string().min(1).max(64) })

export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, resendForm)
	if (!form.ok) return data(form, { status: 400 })
	try {
		await adminRepositoriesFor(admin).outbox.resend(form.data.id)
	} catch (error) {
		return domainFailure(error)
	}
	throw await redirectWithFlash('/admin/email', 'The mail will be sent again.')
}

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 19) : '')

export default function EmailOutbox({ loaderData, actionData }: Route.ComponentProps) {
	const { mails, counts, configured, status } = loaderData
	return (
		<section>
			<h1>Email</h1>
			<p className="hint" data-testid="email-mode">
				{configured
					? 'Mail is written with the change that causes it and sent by the server, retried with backoff while the mail server is unreachable.'
					: 'Sending is not configured (EMAIL_SMTP_URL and EMAIL_FROM): this store writes and sends no mail.'}
			</p>
			{actionData && 'formError' in actionData && actionData.formError ? <p className="form-error">{actionData.formError}</p> : null}
			<StateLinks path="/admin/email" param="status" states={OUTBOX_STATUSES} current={status} counts={counts} all />
			{mails.length === 0 ? (
				<p data-testid="email-empty">{status ? `No ${status} mail.` : 'No mail yet.'}</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Written (UTC)</th>
							<th>What</th>
							<th>To</th>
							<th>Status</th>
							<th>Attempts</th>
							<th>Note</th>
							<th>
								<span className="visually-hidden">Actions</span>
							</th>
						</tr>
					</thead>
					<tbody>
						{mails.map((mail) => (
							<tr key={mail.id} data-status={mail.status}>
								<td data-label="Written (UTC)">{when(mail.createdAt)}</td>
								<td data-label="What">{mail.kind}</td>
								<td data-label="To">
									<Email address={mail.toAddress} />
								</td>
								<td data-label="Status">
									<MailBadge status={mail.status} />
								</td>
								<td data-label="Attempts">{mail.attempts}</td>
								<td data-label="Note">
									{mail.status === 'sent' ? `sent ${when(mail.sentAt)}` : mail.status === 'pending' ? `next try ${when(mail.nextAttemptAt)}` : mail.lastError}
								</td>
								<td>
									{mail.status !== 'pending' ? (
										<Form method="post">
											<input type="hidden" name="id" value={mail.id} />
											<button type="submit" name="intent" value="resend">
												Resend
											</button>
										</Form>
									) : null}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}
