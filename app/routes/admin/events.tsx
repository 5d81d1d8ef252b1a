import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/events'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { TIME_CURSOR } from '../../data/keyset'
import { cursorParam, domainFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { EventResult } from '../../ui/event-result'
import { KeysetPager } from '../../ui/pager'
import { redirectWithFlash } from '../../security/flash.server'

export const meta = () => [{ title: 'Events · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const result = await adminRepositoriesFor(admin).events.page({ cursor: cursorParam(args.request, TIME_CURSOR) })
	return {
		...result,
		events: result.events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString(), receivedAt: e.receivedAt.toISOString() })),
		connections: result.connections.map((c) => ({ ...c, lastRejectedAt: c.lastRejectedAt?.toISOString() ?? null })),
	}
}

const replayForm = formSchema({ intent: z.literal('replay', 'Unknown action'), eventId: recordId })

/** Replay re-applies a stored, verified event through the same reconciliation; applying is idempotent, so it is always safe. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, replayForm)
	if (!form.ok) return data(form, { status: 400 })
	try {
		const result = await adminRepositoriesFor(admin).events.replay(form.data.eventId)
		throw await redirectWithFlash('/admin/events', `Replayed: ${result.summary}`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function Events({ loaderData }: Route.ComponentProps) {
	const { events, connections, newer, older, total } = loaderData
	return (
		<section>
			<h1>Events</h1>
			<p className="hint">Every verified event from payment providers, what it changed, and how many repeats arrived. Refused deliveries are only counted.</p>
			<p className="hint">
				An order moves only when an event’s amount, currency and reference reconcile with it. <strong>Held for review</strong>: the amount is short, the
				currency differs, or the reference is not one the store recorded (an event waiting for its reference is applied by itself once the reference appears).{' '}
				<strong>Conflict</strong>: its references name different orders. Neither changed an order: check the payment at the provider and refund it there, or
				replay the event once the order is right.
			</p>
			<table className="data-table" data-testid="rejections">
				<thead>
					<tr>
						<th>Connection</th>
						<th>Endpoint</th>
						<th>Refused deliveries</th>
					</tr>
				</thead>
				<tbody>
					{connections
						.filter((c) => c.provider !== 'offline')
						.map((c) => (
							<tr key={c.handle}>
								<td data-label="Connection">{c.handle}</td>
								<td data-label="Endpoint">
									<code>/api/events/{c.handle}</code>
								</td>
								<td data-label="Refused deliveries">
									{c.rejectedEvents}
									{c.lastRejectedAt ? ` (last ${c.lastRejectedAt.replace('T', ' ').slice(0, 19)} UTC)` : ''}
								</td>
							</tr>
						))}
				</tbody>
			</table>
			{events.length === 0 ? (
				<p className="empty-state">
					No events received yet. Point your provider at the endpoint of a connection (<Link to="/admin/connections">Connections</Link>).
				</p>
			) : (
				<table className="data-table" data-testid="events">
					<thead>
						<tr>
							<th>Received (UTC)</th>
							<th>Connection</th>
							<th>Type</th>
							<th>Verified</th>
							<th>Result</th>
							<th>Repeats</th>
							<th>
								<span className="visually-hidden">Actions</span>
							</th>
						</tr>
					</thead>
					<tbody>
						{events.map((event) => (
							<tr key={event.id} data-outcome={event.outcome}>
								<td data-label="Received (UTC)">{event.receivedAt.replace('T', ' ').slice(0, 19)}</td>
								<td data-label="Connection">{event.connection.handle}</td>
								<td data-label="Type">
									{event.type}
									<br />
									<code>{event.providerEventId}</code>
								</td>
								<td data-label="Verified">yes</td>
								<td data-label="Result">
									<EventResult outcome={event.outcome} summary={event.summary} />
								</td>
								<td data-label="Repeats">{event.duplicates}</td>
								<td>
									<Form method="post">
										<input type="hidden" name="intent" value="replay" />
										<input type="hidden" name="eventId" value={event.id} />
										<button type="submit" className="secondary">
											Replay
										</button>
									</Form>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<KeysetPager newer={newer} older={older} summary={`${total} events`} />
		</section>
	)
}
