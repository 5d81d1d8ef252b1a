import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'

import { SUBSCRIBER_STATES, type SubscriberState } from './subscriber-states'

const whereFor = (state: SubscriberState) =>
	state === 'confirmed'
		? { confirmedAt: { not: null }, unsubscribedAt: null }
		: state === 'pending'
			? { confirmedAt: null, unsubscribedAt: null }
			: { unsubscribedAt: { not: null } }

const select = { email: true, subscribedAt: true, confirmedAt: true, unsubscribedAt: true } as const

/** The newsletter list as Store Admin sees it: confirmed, pending (not yet confirmed) and unsubscribed addresses. */
export function adminSubscribersRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	return {
		async page({ state = 'confirmed', take = 100 }: { state?: SubscriberState; take?: number } = {}) {
			const [subscribers, ...counts] = await Promise.all([
				db.newsletterSubscriber.findMany({ where: { storeId, ...whereFor(state) }, orderBy: { subscribedAt: 'desc' }, take, select }),
				...SUBSCRIBER_STATES.map((s) => db.newsletterSubscriber.count({ where: { storeId, ...whereFor(s) } })),
			])
			return { subscribers, counts: Object.fromEntries(SUBSCRIBER_STATES.map((s, i) => [s, counts[i] ?? 0])) as Record<SubscriberState, number> }
		},

		/** Every address in a state, for the CSV export (oldest first). */
		all(state: SubscriberState) {
			return db.newsletterSubscriber.findMany({ where: { storeId, ...whereFor(state) }, orderBy: { subscribedAt: 'asc' }, select })
		},
	}
}

/** A CSV cell: quoted, and a leading = + - @ (or tab, CR) made inert so a spreadsheet runs no formula. */
export function csvCell(value: string) {
	const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
	return `"${inert.replaceAll('"', '""')}"`
}
