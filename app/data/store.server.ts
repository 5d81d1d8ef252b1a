import { auditEntry } from '../audit/audit.server'
import type { Db } from './db.server'
import { cachedStoreProfile, forgetStoreProfile } from './store-profile.server'
import { type Viewer, isAdmin } from './viewer'

/** The Store's public profile. Scope is the viewer's Store; callers cannot name another. */
export function storeRepository(db: Db, viewer: Viewer) {
	return {
		/** On every page: served from memory (store-profile.server.ts), fresh after an edit. */
		profile() {
			return cachedStoreProfile(db, viewer.storeId)
		},

		updateProfile(input: { name: string }) {
			// Routes check this with requireAdmin; the repository refuses on its own too.
			if (!isAdmin(viewer)) throw new Error('Only a Store Admin may edit the store profile')
			const admin = viewer
			const saved = db.$transaction(async (tx) => {
				const store = await tx.store.update({
					where: { id: admin.storeId },
					data: { name: input.name },
					select: { name: true },
				})
				await auditEntry(tx, admin, {
					action: 'store.update',
					targetType: 'store',
					targetId: admin.storeId,
					detail: { name: input.name },
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
