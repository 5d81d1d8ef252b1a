import type { Db } from './db.server'
import type { UserViewer } from './viewer'

/** The signed-in user's own account. The owner is the session's user; nothing else. */
export function accountRepository(db: Db, viewer: UserViewer) {
	const own = { id: viewer.userId, storeId: viewer.storeId }
	return {
		profile() {
			return db.user.findUniqueOrThrow({
				where: own,
				select: { name: true, email: true, role: true, createdAt: true },
			})
		},

		/** `pending` is an enrolment started but not yet confirmed with a code. */
		async twoFactorStatus() {
			const user = await db.user.findUniqueOrThrow({
				where: own,
				select: { twoFactorEnabled: true, twoFactors: { select: { verified: true } } },
			})
			return {
				enabled: user.twoFactorEnabled,
				pending: !user.twoFactorEnabled && user.twoFactors.some((row) => row.verified === false),
			}
		},

		updateProfile(input: { name: string }) {
			return db.user.update({
				where: own,
				data: { name: input.name },
				select: { name: true },
			})
		},
	}
}
