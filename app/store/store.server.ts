import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import { cachedStoreProfile, forgetStoreProfile } from './store-profile.server'
import { type Viewer, isAdmin } from '../data/viewer'
import { viewerScope } from '../data/scope'

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

		/** What Store Admin edits: the profile and the sign-in requirement (never sent to shoppers). */
		settings() {
			return db.store.findUniqueOrThrow({
				where: { id: viewer.storeId },
				select: { name: true, requireAdminTwoFactor: true },
			})
		},

		/**
		 * `requireAdminTwoFactor` may only be switched on by an admin who has enrolled, so the
		 * operator who turns it on can still sign in (docs/decisions/027-two-factor.md).
		 */
		updateProfile(input: { name: string; requireAdminTwoFactor?: boolean }) {
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
				const store = await tx.store.update({
					where: { id: admin.storeId },
					data: { name: input.name, ...(require === undefined ? {} : { requireAdminTwoFactor: require }) },
					select: { name: true },
				})
				await auditEntry(tx, admin, {
					action: 'store.update',
					targetType: 'store',
					targetId: admin.storeId,
					detail: { name: input.name, ...(require === undefined ? {} : { requireAdminTwoFactor: require }) },
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
