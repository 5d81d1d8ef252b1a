import { Link } from 'react-router'
import { randomUUID } from 'node:crypto'
import type { Route } from './+types/newsletter'
import { requireAdmin } from '../../auth/guards.server'
import { SUBSCRIBER_STATES, type SubscriberState } from '../../newsletter/subscriber-states'
import { adminRepositoriesFor } from '../../repositories.server'
import { StateLinks } from '../../ui/admin-list'
import { CampaignForm } from './campaign-form'
import { Email } from '../../ui/email'

export const meta = () => [{ title: 'Newsletter · Store Admin' }]

const stateOf = (request: Request): SubscriberState => {
	const asked = new URL(request.url).searchParams.get('state')
	return SUBSCRIBER_STATES.includes(asked as SubscriberState) ? (asked as SubscriberState) : 'confirmed'
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const state = stateOf(args.request)
	const { subscribers, counts } = await adminRepositoriesFor(admin).subscribers.page({ state })
	return {
		// The campaign form's key: a double click on "Send" queues one campaign [R136].
		idempotencyKey: randomUUID(),
		state,
		counts,
		subscribers: subscribers.map((s) => ({
			email: s.email,
			subscribedAt: s.subscribedAt.toISOString(),
			confirmedAt: s.confirmedAt?.toISOString() ?? null,
			unsubscribedAt: s.unsubscribedAt?.toISOString() ?? null,
		})),
	}
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '')

export default function Subscribers({ loaderData }: Route.ComponentProps) {
	const { state, counts, subscribers, idempotencyKey } = loaderData
	return (
		<section>
			<h1>Newsletter</h1>
			<p className="hint">Only confirmed addresses may be sent a newsletter: their owners followed the confirmation link.</p>
			<CampaignForm idempotencyKey={idempotencyKey} />
			<p>
				<Link to="/admin/newsletter/campaigns">Campaigns sent, and their progress</Link>
			</p>
			<StateLinks path="/admin/newsletter" param="state" states={SUBSCRIBER_STATES} current={state} counts={counts}>
				{' '}
				· <a href={`/admin/newsletter/export?state=${state}`}>Export {state} as CSV</a>
			</StateLinks>
			{subscribers.length === 0 ? (
				<p data-testid="subscribers-empty">No {state} addresses.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Email</th>
							<th>Subscribed</th>
							<th>Confirmed</th>
							<th>Unsubscribed</th>
						</tr>
					</thead>
					<tbody>
						{subscribers.map((s) => (
							<tr key={s.email}>
								<td data-label="Email">
									<Email address={s.email} />
								</td>
								<td data-label="Subscribed">{day(s.subscribedAt)}</td>
								<td data-label="Confirmed">{day(s.confirmedAt)}</td>
								<td data-label="Unsubscribed">{day(s.unsubscribedAt)}</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
		</section>
	)
}
