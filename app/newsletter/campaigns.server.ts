import { randomUUID } from 'node:crypto'
import { auditEntry } from '../audit/audit.server'
import { type Db, transaction } from '../data/db.server'
import { type StoreScope, runtimeScope, sameStore, viewerScope } from '../data/scope'
import type { AdminViewer } from '../data/viewer'
import { isUniqueViolation } from '../data/unique-violation'
import { DomainError } from '../errors.server'
import { sendingConfigured } from '../email/outbox.server'
import type { Renderer } from '../email/worker.server'
import { moduleData } from '../modules/data-service.server'
import { newsletterModule } from '../modules/newsletter/definition'
import { newsletterMail } from './newsletter.server'

export const CAMPAIGN_SUBJECT_MAX = 150
export const CAMPAIGN_BODY_MAX = 20_000
/** Outbox rows of one campaign are written this many to a statement. */
const WRITE_CHUNK = 500
/** A campaign's mails wait behind every mail of one person's own (app/email/worker.server.ts). */
export const CAMPAIGN_PRIORITY = 1
/** What the worker writes when a renderer gives nothing: here, the address left before its turn. */
const NOTHING_TO_SEND = 'nothing to send'

export type CampaignInput = { subject: string; body: string }

/** The body's paragraphs: blank lines divide them; each is escaped when the HTML part is built. */
const paragraphsOf = (body: string) =>
	body
		.replace(/\r\n?/g, '\n')
		.split(/\n\s*\n/)
		.map((p) => p.trim())
		.filter(Boolean)

function checked({ subject, body }: CampaignInput): CampaignInput {
	const s = subject.trim()
	if (s.length === 0 || s.length > CAMPAIGN_SUBJECT_MAX || /[\u0000-\u001f\u007f]/.test(s)) {
		throw new DomainError(400, `Write a subject of 1 to ${CAMPAIGN_SUBJECT_MAX} characters on one line.`, 'subject')
	}
	const b = body.trim()
	if (paragraphsOf(b).length === 0 || b.length > CAMPAIGN_BODY_MAX || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(b)) {
		throw new DomainError(400, `Write a text of 1 to ${CAMPAIGN_BODY_MAX.toLocaleString('en-US')} characters.`, 'body')
	}
	return { subject: s, body: b }
}

/** Every confirmed address still on the list, a page at a time, oldest first. */
async function confirmedAddresses(scope: StoreScope) {
	const list = moduleData(scope, newsletterModule)
	const out: string[] = []
	let cursor: string | null = null
	do {
		const page: Awaited<ReturnType<typeof list.list>> = await list.list({
			where: { confirmed_at: { not: null }, unsubscribed_at: null },
			orderBy: { field: 'created_at', direction: 'asc' },
			limit: 100,
			cursor,
		})
		out.push(...page.rows.map((row) => row.email))
		cursor = page.next
	} while (cursor)
	return out
}

export type CampaignProgress = { sent: number; pending: number; failed: number; skipped: number }

/**
 * [R136] Newsletter campaigns as Store Admin sends them. `send` writes, in ONE transaction, the
 * campaign and one outbox mail per confirmed subscriber (its dedupe key names the campaign and
 * the address), so the mail worker sends them at the operator's rate, a restart finds the rest
 * still pending, and a form sent twice (the same idempotency key) adds no second campaign.
 * `test` sends the same mail to the admin's own address only.
 */
export function adminCampaignsRepository(db: Db, admin: AdminViewer, { sending = sendingConfigured }: { sending?: () => boolean } = {}) {
	const storeId = admin.storeId
	const canSend = () => {
		if (!sending()) throw new DomainError(409, 'Sending mail is not set up (EMAIL_SMTP_URL and EMAIL_FROM), so nothing can be sent.')
	}
	const progressOf = async (ids: string[]): Promise<Map<string, CampaignProgress>> => {
		const rows = ids.length
			? await db.outboxMail.groupBy({
					by: ['subjectId', 'status', 'lastError'],
					where: { storeId, kind: 'newsletter-campaign', subjectId: { in: ids } },
					_count: { _all: true },
				})
			: []
		const out = new Map(ids.map((id) => [id, { sent: 0, pending: 0, failed: 0, skipped: 0 }]))
		for (const row of rows) {
			const progress = out.get(row.subjectId)!
			const n = row._count._all
			if (row.status === 'sent') progress.sent += n
			else if (row.status === 'pending') progress.pending += n
			else if (row.lastError?.startsWith(NOTHING_TO_SEND)) progress.skipped += n
			else progress.failed += n
		}
		return out
	}

	return {
		/** The latest campaigns with their progress: sent, pending, failed, skipped (left the list first). */
		async list() {
			const campaigns = await db.newsletterCampaign.findMany({
				where: { storeId, test: false },
				orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
				take: 20,
				select: { id: true, subject: true, recipients: true, createdAt: true, createdByEmail: true },
			})
			const progress = await progressOf(campaigns.map((c) => c.id))
			return campaigns.map((campaign) => ({ ...campaign, progress: progress.get(campaign.id)! }))
		},

		/** The campaign's mail to the admin's own address, marked as a test; nobody else gets it. */
		async test(input: CampaignInput) {
			canSend()
			const campaign = checked(input)
			return transaction(db, async (tx) => {
				const created = await tx.newsletterCampaign.create({
					data: { storeId, ...campaign, test: true, recipients: 1, idempotencyKey: randomUUID(), createdById: admin.userId, createdByEmail: admin.email },
					select: { id: true },
				})
				await tx.outboxMail.create({
					data: { storeId, kind: 'newsletter-campaign-test', subjectId: created.id, toAddress: admin.email, dedupeKey: `campaign-test:${created.id}` },
					select: { id: true },
				})
				await auditEntry(tx, admin, {
					action: 'newsletter.campaign.test',
					targetType: 'store',
					targetId: storeId,
					detail: { subject: campaign.subject, to: admin.email },
				})
				return { to: admin.email }
			})
		},

		/** Queues the campaign for every confirmed subscriber; a repeat of the same form queues nothing more. */
		async send(input: CampaignInput & { idempotencyKey: string }) {
			canSend()
			const campaign = checked(input)
			const replay = () =>
				db.newsletterCampaign.findUnique({
					where: { storeId_idempotencyKey: { storeId, idempotencyKey: input.idempotencyKey } },
					select: { id: true, recipients: true },
				})
			const earlier = await replay()
			if (earlier) return { ...earlier, replayed: true }
			try {
				return await transaction(db, async (tx) => {
					const addresses = await confirmedAddresses(sameStore(viewerScope(db, admin), tx))
					if (addresses.length === 0) throw new DomainError(409, 'No one has confirmed a subscription yet: there is nobody to send to.')
					const created = await tx.newsletterCampaign.create({
						data: {
							storeId,
							...campaign,
							recipients: addresses.length,
							idempotencyKey: input.idempotencyKey,
							createdById: admin.userId,
							createdByEmail: admin.email,
						},
						select: { id: true, recipients: true },
					})
					for (let i = 0; i < addresses.length; i += WRITE_CHUNK) {
						await tx.outboxMail.createMany({
							data: addresses.slice(i, i + WRITE_CHUNK).map((email) => ({
								storeId,
								kind: 'newsletter-campaign',
								subjectId: created.id,
								toAddress: email,
								dedupeKey: `campaign:${created.id}:${email}`,
								priority: CAMPAIGN_PRIORITY,
							})),
						})
					}
					await auditEntry(tx, admin, {
						action: 'newsletter.campaign.send',
						targetType: 'store',
						targetId: storeId,
						detail: { campaignId: created.id, subject: campaign.subject, recipients: addresses.length },
					})
					return { ...created, replayed: false }
				})
			} catch (error) {
				// Two submits of one form at the same moment: the second finds the first's campaign.
				if (isUniqueViolation(error, 'idempotencyKey')) {
					const raced = await replay()
					if (raced) return { ...raced, replayed: true }
				}
				throw error
			}
		},
	}
}

/**
 * A campaign's mail to one subscriber, rendered when the worker sends it [R136, R137]: only to an
 * address that is confirmed and on the list at that moment (one that left during the send gets
 * nothing: the worker records "nothing to send"), through newsletterMail, so it carries the
 * recipient's own unsubscribe link and the RFC 8058 headers.
 */
export function campaignMailRenderer(db: Db, { test = false } = {}): Renderer {
	return async ({ storeId, subjectId, toAddress }) => {
		const campaign = await db.newsletterCampaign.findFirst({ where: { id: subjectId, storeId, test }, select: { subject: true, body: true } })
		if (!campaign) return null
		if (!test) {
			// Mail is written for the runtime's own Store only: a row naming another is not sent.
			const scope = await runtimeScope(db)
			if (scope.storeId !== storeId) return null
			const subscriber = await moduleData(scope, newsletterModule).find({ email: toAddress })
			if (!subscriber?.confirmed_at || subscriber.unsubscribed_at) return null
		}
		return newsletterMail({
			storeId,
			email: toAddress,
			subject: test ? `[Test] ${campaign.subject}` : campaign.subject,
			paragraphs: paragraphsOf(campaign.body),
		})
	}
}
