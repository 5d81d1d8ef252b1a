import type { Db } from '../data/db.server'
import { viewerScope } from '../data/scope'
import type { AdminViewer } from '../data/viewer'
import { moduleData } from '../modules/data-service.server'
import { newsletterModule } from '../modules/newsletter/definition'
import { SUBSCRIBER_STATES, type SubscriberState } from './subscriber-states'

const whereFor = (state: SubscriberState) =>
	state === 'confirmed'
		? { confirmed_at: { not: null }, unsubscribed_at: null }
		: state === 'pending'
			? { confirmed_at: null, unsubscribed_at: null }
			: { unsubscribed_at: { not: null } }

type Subscriber = { email: string; subscribedAt: Date; confirmedAt: Date | null; unsubscribedAt: Date | null }

/** The newsletter list as Store Admin sees it: confirmed, pending (not yet confirmed) and unsubscribed addresses. */
export function adminSubscribersRepository(db: Db, admin: AdminViewer) {
	const list = moduleData(viewerScope(db, admin), newsletterModule)
	const shown = (rows: { email: string; created_at: Date; confirmed_at: Date | null; unsubscribed_at: Date | null }[]): Subscriber[] =>
		rows.map((r) => ({ email: r.email, subscribedAt: r.created_at, confirmedAt: r.confirmed_at, unsubscribedAt: r.unsubscribed_at }))
	return {
		async page({ state = 'confirmed', take = 100 }: { state?: SubscriberState; take?: number } = {}) {
			const [page, ...counts] = await Promise.all([
				list.list({ where: whereFor(state), orderBy: { field: 'created_at', direction: 'desc' }, limit: take }),
				...SUBSCRIBER_STATES.map((s) => list.count(whereFor(s))),
			])
			return {
				subscribers: shown(page.rows),
				counts: Object.fromEntries(SUBSCRIBER_STATES.map((s, i) => [s, counts[i] ?? 0])) as Record<SubscriberState, number>,
			}
		},

		/** Every address in a state, for the CSV export (oldest first), a page at a time. */
		async all(state: SubscriberState) {
			const out: Subscriber[] = []
			let cursor: string | null = null
			do {
				const page: Awaited<ReturnType<typeof list.list>> = await list.list({
					where: whereFor(state),
					orderBy: { field: 'created_at', direction: 'asc' },
					limit: 100,
					cursor,
				})
				out.push(...shown(page.rows))
				cursor = page.next
			} while (cursor)
			return out
		},
	}
}

/** A CSV cell: quoted, and a leading = + - @ (or tab, CR) made inert so a spreadsheet runs no formula. */
export function csvCell(value: string) {
	const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
	return `"${inert.replaceAll('"', '""')}"`
}
