import { randomUUID } from 'node:crypto'
import { data, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/newsletter-campaigns'
import { requireAdmin } from '../../auth/guards.server'
import { CAMPAIGN_BODY_MAX, CAMPAIGN_SUBJECT_MAX } from '../../newsletter/campaigns.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { CampaignForm, CampaignProgress } from './campaign-form'
import { Email } from '../../ui/email'

export const meta = () => [{ title: 'Newsletter campaigns · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const campaigns = await adminRepositoriesFor(admin).campaigns.list()
	return { campaigns: campaigns.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })), idempotencyKey: randomUUID() }
}

/** A body of 20,000 characters, each up to nine bytes once form-encoded. */
const CAMPAIGN_FORM_BYTES = 256 * 1024

const campaignForm = formSchema({
	subject: z.string().max(CAMPAIGN_SUBJECT_MAX + 50, `Use at most ${CAMPAIGN_SUBJECT_MAX} characters`),
	body: z.string().max(CAMPAIGN_BODY_MAX + 500, `Use at most ${CAMPAIGN_BODY_MAX.toLocaleString('en-US')} characters`),
	intent: z.enum(['test', 'send'], 'Choose “Send me a test” or “Send”'),
	idempotencyKey: z.uuid('Reload the page and try again').optional(),
})

/** [R136] A test to the admin's own address, or the campaign to every confirmed subscriber. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, campaignForm, { maxBytes: CAMPAIGN_FORM_BYTES })
	if (!form.ok) return data({ ...form, values: null }, { status: 400 })
	const { intent, idempotencyKey, ...campaign } = form.data
	const campaigns = adminRepositoriesFor(admin).campaigns
	try {
		if (intent === 'test') {
			const sent = await campaigns.test(campaign)
			throw await redirectWithFlash('/admin/newsletter/campaigns', `A test is on its way to ${sent.to}.`)
		}
		const queued = await campaigns.send({ ...campaign, idempotencyKey: idempotencyKey ?? randomUUID() })
		throw await redirectWithFlash(
			'/admin/newsletter/campaigns',
			queued.replayed ? 'That campaign was already sent: nothing more was queued.' : `Queued for ${queued.recipients} confirmed subscribers.`,
		)
	} catch (error) {
		if (error instanceof Response) throw error
		const failure = domainFailure(error)
		return data({ ...failure.data, values: campaign }, { status: failure.init?.status ?? 400 })
	}
}

export default function Campaigns({ loaderData, actionData }: Route.ComponentProps) {
	const { campaigns, idempotencyKey } = loaderData
	return (
		<section>
			<p>
				<Link to="/admin/newsletter">← Newsletter</Link>
			</p>
			<h1>Newsletter campaigns</h1>
			<CampaignForm
				idempotencyKey={idempotencyKey}
				errors={actionData?.fieldErrors}
				formError={actionData?.formError}
				values={actionData?.values ?? undefined}
			/>
			{campaigns.length === 0 ? (
				<p data-testid="campaigns-empty">No campaign sent yet.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th scope="col">Sent</th>
							<th scope="col">Subject</th>
							<th scope="col">Recipients</th>
							<th scope="col">Progress</th>
						</tr>
					</thead>
					<tbody>
						{campaigns.map((campaign) => (
							<tr key={campaign.id} data-testid="campaign-row">
								<td data-label="Sent">
									{campaign.createdAt.slice(0, 16).replace('T', ' ')} by <Email address={campaign.createdByEmail} />
								</td>
								<td data-label="Subject">{campaign.subject}</td>
								<td data-label="Recipients">{campaign.recipients}</td>
								<td data-label="Progress">
									<CampaignProgress progress={campaign.progress} />
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}
