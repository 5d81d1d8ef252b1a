import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'

/**
 * The Store Admin activity log: every admin write adds one row in the SAME
 * transaction as the change, so a failed change leaves no entry and a change never goes
 * unrecorded. Append-only: nothing in the store updates or deletes these rows.
 */
export type AuditInput = {
	action: string
	targetType: string
	targetId: string
	detail?: Record<string, unknown>
}

type Tx = Pick<Db, 'auditEntry'>

/** The audit row for `admin`'s change, to be written with the change in one transaction. */
export function auditEntry(tx: Tx, admin: AdminViewer, input: AuditInput) {
	return tx.auditEntry.create({
		data: {
			storeId: admin.storeId,
			actorId: admin.userId,
			actorEmail: admin.email,
			action: input.action,
			targetType: input.targetType,
			targetId: input.targetId,
			detail: input.detail ? JSON.stringify(input.detail).slice(0, 2000) : null,
		},
		select: { id: true },
	})
}

export const AUDIT_PAGE_SIZE = 50

/** Reading the log: the admin's own Store only, newest first. */
export function auditRepository(db: Db, admin: AdminViewer) {
	return {
		async page({ page = 1 }: { page?: number } = {}) {
			const where = { storeId: admin.storeId }
			const [entries, total] = await Promise.all([
				db.auditEntry.findMany({
					where,
					orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
					skip: (page - 1) * AUDIT_PAGE_SIZE,
					take: AUDIT_PAGE_SIZE,
					select: { id: true, actorEmail: true, action: true, targetType: true, targetId: true, detail: true, createdAt: true },
				}),
				db.auditEntry.count({ where }),
			])
			return { entries, total, page, pages: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)) }
		},
	}
}
