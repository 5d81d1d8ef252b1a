import { Form } from 'react-router'
import type { FieldErrors } from '../../security/form.server'
import { Field, FieldError, FormError } from '../../ui/forms'

export type CampaignProgressView = { sent: number; pending: number; failed: number; skipped: number }

/**
 * The new-campaign form [R136]: subject and plain text, sent first to the admin's own address
 * ("Send me a test"), then to every confirmed subscriber. Its key makes a double click one campaign.
 */
export function CampaignForm({
	idempotencyKey,
	errors = {},
	formError,
	values,
}: {
	idempotencyKey: string
	errors?: FieldErrors
	formError?: string
	values?: { subject?: string; body?: string }
}) {
	return (
		<Form method="post" action="/admin/newsletter/campaigns" noValidate className="card wide" data-testid="campaign-form">
			<h2>New campaign</h2>
			<FormError message={formError} />
			<Field name="subject" label="Subject" required maxLength={150} defaultValue={values?.subject} error={errors.subject} />
			<div className="field">
				<label htmlFor="field-body">Text (plain; a blank line starts a new paragraph)</label>
				<textarea id="field-body" name="body" rows={10} maxLength={20_000} defaultValue={values?.body} aria-invalid={errors.body ? true : undefined} />
				<FieldError id="field-body-error" message={errors.body} />
			</div>
			<input type="hidden" name="idempotencyKey" value={idempotencyKey} />
			<p className="hint">Every mail carries its recipient&apos;s own unsubscribe link. Only confirmed subscribers are sent it.</p>
			<button type="submit" name="intent" value="test">
				Send me a test
			</button>{' '}
			<button type="submit" name="intent" value="send">
				Send to all confirmed subscribers
			</button>
		</Form>
	)
}

/** Sent, pending, failed and skipped (left the list before their turn) of one campaign. */
export function CampaignProgress({ progress }: { progress: CampaignProgressView }) {
	return (
		<span data-testid="campaign-progress">
			{progress.sent} sent · {progress.pending} pending · {progress.failed} failed
			{progress.skipped > 0 ? ` · ${progress.skipped} left the list first` : ''}
		</span>
	)
}
