import type { Route } from './+types/newsletter-export'
import { requireAdmin } from '../../auth/guards.server'
import { csvCell } from '../../newsletter/admin-subscribers.server'
import { SUBSCRIBER_STATES, type SubscriberState } from '../../newsletter/subscriber-states'
import { adminRepositoriesFor } from '../../repositories.server'

/** CSV of one state's addresses, for the admin only (the same guard as every /admin route). */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const asked = new URL(args.request.url).searchParams.get('state')
	const state: SubscriberState = SUBSCRIBER_STATES.includes(asked as SubscriberState) ? (asked as SubscriberState) : 'confirmed'
	const rows = await adminRepositoriesFor(admin).subscribers.all(state)
	const iso = (date: Date | null) => (date ? date.toISOString() : '')
	const lines = [
		['email', 'subscribed_at', 'confirmed_at', 'unsubscribed_at'].join(','),
		...rows.map((r) => [csvCell(r.email), csvCell(iso(r.subscribedAt)), csvCell(iso(r.confirmedAt)), csvCell(iso(r.unsubscribedAt))].join(',')),
	]
	return new Response(`${lines.join('\r\n')}\r\n`, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="newsletter-${state}.csv"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
