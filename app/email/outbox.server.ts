import type { Db } from '../data/db.server'
import { getConfig } from '../config/env.server'

type Tx = Pick<Db, 'outboxMail'>

export type MailKind =
	| 'order-placed'
	| 'order-paid'
	| 'order-fulfilled'
	| 'order-cancelled'
	| 'order-refunded'
	| 'newsletter-confirm'
	| 'newsletter-leave'
	| 'newsletter-campaign'
	| 'newsletter-campaign-test'
	| 'password-reset'

/** Whether this store sends mail at all (EMAIL_SMTP_URL and EMAIL_FROM set). */
export const sendingConfigured = () => getConfig().email !== null

/**
 * Writes a mail into the outbox inside the caller's transaction, so the mail exists exactly when
 * the change that causes it commits (a rolled-back checkout leaves no mail). `dedupeKey` names
 * the change: writing the same key again adds nothing, so a repeated change sends no second
 * mail. Without sending configured nothing is written: mail that can never leave is not kept.
 */
export async function enqueueMail(
	tx: Tx,
	mail: { storeId: string; kind: MailKind; subjectId: string; toAddress: string; dedupeKey: string },
	configured = sendingConfigured(),
) {
	if (!configured) return false
	await tx.outboxMail.upsert({
		where: { storeId_dedupeKey: { storeId: mail.storeId, dedupeKey: mail.dedupeKey.slice(0, 300) } },
		create: { ...mail, dedupeKey: mail.dedupeKey.slice(0, 300) },
		update: {},
		select: { id: true },
	})
	return true
}
