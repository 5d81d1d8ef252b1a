import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import type { OutboxStatus } from './statuses'

export const OUTBOX_PAGE_SIZE = 50

/** The outbox as Store Admin sees it: what is waiting, sent and failed (with why), and a resend. */
export function adminOutboxRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	return {
		async page({ status }: { status?: OutboxStatus } = {}) {
			const where = { storeId, ...(status ? { status } : {}) }
			const [mails, counts] = await Promise.all([
				db.outboxMail.findMany({
					where,
					orderBy: { createdAt: 'desc' },
					take: OUTBOX_PAGE_SIZE,
					select: { id: true, kind: true, toAddress: true, status: true, attempts: true, lastError: true, createdAt: true, sentAt: true, nextAttemptAt: true },
				}),
				db.outboxMail.groupBy({ by: ['status'], where: { storeId }, _count: { _all: true } }),
			])
			return { mails, counts: Object.fromEntries(counts.map((c) => [c.status, c._count._all])) as Partial<Record<OutboxStatus, number>> }
		},

		/** Sends a sent or failed mail again (once more, from the first attempt), audited; a pending one is already on its way. */
		async resend(id: string) {
			await db.$transaction(async (tx) => {
				const mail = await tx.outboxMail.findFirst({ where: { id, storeId }, select: { id: true, kind: true, status: true } })
				if (!mail) throw new DomainError(404, 'That mail was not found.')
				const { count } = await tx.outboxMail.updateMany({
					where: { id, storeId, status: { in: ['sent', 'failed'] } },
					data: { status: 'pending', attempts: 0, nextAttemptAt: new Date(), leaseUntil: null, lastError: null },
				})
				if (count !== 1) throw new DomainError(409, 'That mail is already waiting to be sent.')
				await auditEntry(tx, admin, { action: 'mail.resend', targetType: 'mail', targetId: id, detail: { kind: mail.kind, from: mail.status } })
			})
		},
	}
}
