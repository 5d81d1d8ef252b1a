import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import { cachedStoreProfile, forgetStoreProfile } from './store-profile.server'
import { type Viewer, isAdmin } from '../data/viewer'
import { viewerScope } from '../data/scope'
import { DomainError } from '../errors.server'
import { isStoreCurrency } from './currencies'

/** an admin who has not enrolled in two-factor sign-in cannot require it of everyone. */
export class AdminNotEnrolledError extends Error {
	override name = 'AdminNotEnrolledError'
	constructor() {
		super('Set up two-factor sign-in for your own account first (Account → Sessions and security).')
	}
}

/** The Store's public profile. Scope is the viewer's Store; callers cannot name another. */
export function storeRepository(db: Db, viewer: Viewer) {
	return {
		/** On every page: served from memory (store-profile.server.ts), fresh after an edit. */
		profile() {
			return cachedStoreProfile(viewerScope(db, viewer))
		},

		/**
		 * What Store Admin edits: the profile, the currency (and whether it is still open: until
		 * the first Order [R118]) and the sign-in requirement. Never sent to shoppers.
		 */
		async settings() {
			const [store, firstOrder] = await Promise.all([
				db.store.findUniqueOrThrow({ where: { id: viewer.storeId }, select: { name: true, currency: true, requireAdminTwoFactor: true } }),
				db.order.findFirst({ where: { storeId: viewer.storeId }, select: { id: true } }),
			])
			return { ...store, currencyFixed: firstOrder !== null }
		},

		/**
		 * `requireAdminTwoFactor` may only be switched on by an admin who has enrolled, so the
		 * operator who turns it on can still sign in (docs/decisions/027-two-factor.md).
		 */
		updateProfile(input: { name: string; currency?: string; requireAdminTwoFactor?: boolean }) {
			// Routes check this with requireAdmin; the repository refuses on its own too.
			if (!isAdmin(viewer)) throw new Error('Only a Store Admin may edit the store profile')
			const admin = viewer
			const saved = db.$transaction(async (tx) => {
				const require = input.requireAdminTwoFactor
				if (require) {
					const current = await tx.store.findUniqueOrThrow({ where: { id: admin.storeId }, select: { requireAdminTwoFactor: true } })
					const actor = await tx.user.findFirst({ where: { id: admin.userId, storeId: admin.storeId }, select: { twoFactorEnabled: true } })
					if (!current.requireAdminTwoFactor && !actor?.twoFactorEnabled) throw new AdminNotEnrolledError()
				}
				const current = await tx.store.findUniqueOrThrow({ where: { id: admin.storeId }, select: { currency: true, lastOrderNumber: true } })
				const currency = input.currency !== undefined && input.currency !== current.currency ? input.currency : undefined
				if (currency !== undefined) await openCurrency(tx, admin.storeId, current.lastOrderNumber, currency)
				const store = await tx.store.update({
					where: { id: admin.storeId },
					data: { name: input.name, ...(require === undefined ? {} : { requireAdminTwoFactor: require }) },
					select: { name: true },
				})
				await auditEntry(tx, admin, {
					action: 'store.update',
					targetType: 'store',
					targetId: admin.storeId,
					detail: {
						name: input.name,
						...(currency === undefined ? {} : { currency: { from: current.currency, to: currency } }),
						...(require === undefined ? {} : { requireAdminTwoFactor: require }),
					},
				})
				return store
			})
			// Once committed, every page (in every process sharing Redis) shows the new profile.
			return saved.then((store) => {
				forgetStoreProfile(admin.storeId)
				return store
			})
		},
	}
}

/**
 * [R118] Sets the Store's currency while it has no Order. Checkout takes its number and the
 * currency from the Store row in one statement (app/orders/checkout.server.ts), so the change is
 * made only if that counter has not moved since no Order was seen: a checkout in flight and a
 * change of currency never both win, and every Order is in the currency the Store had.
 */
async function openCurrency(tx: Pick<Db, 'store' | 'order'>, storeId: string, lastOrderNumber: number, currency: string) {
	if (!isStoreCurrency(currency)) throw new DomainError(400, 'Choose a currency from the list.', 'currency')
	const fixed = new DomainError(409, 'The currency is fixed once the store has taken an order; it was not changed.', 'currency')
	if (await tx.order.findFirst({ where: { storeId }, select: { id: true } })) throw fixed
	const changed = await tx.store.updateMany({ where: { id: storeId, lastOrderNumber }, data: { currency } })
	if (changed.count !== 1) throw fixed
}
