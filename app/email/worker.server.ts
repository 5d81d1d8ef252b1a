import type { Db } from '../data/db.server'
import { log } from '../log/logger.server'
import { mailHeaders, type RenderedMail } from './render'

/** The worker's transport: nodemailer's in production, anything with the same `sendMail` in tests. */
export type Transport = {
	sendMail(mail: {
		from: string
		to: string
		subject: string
		text: string
		html: string
		messageId: string
		headers?: Record<string, string>
	}): Promise<unknown>
}

/** Renders an outbox row when it is sent; null when the thing it is about is gone (the mail is dropped). */
export type Renderer = (row: { storeId: string; subjectId: string; toAddress: string }) => Promise<RenderedMail | null>

export const LEASE_MS = 60_000
export const MAX_ATTEMPTS = 8
/** 30 s, 1 min, 2 min … capped at an hour: about 2 h 40 min of retries before a mail is marked failed. */
export const backoffMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))

/** One line for the admin page: an error's code and first line, never a credential. */
function reasonOf(error: unknown) {
	const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown }
	const first = String(message ?? 'error')
		.split('\n')[0]!
		.replace(/\b[A-Za-z0-9+/=_-]{24,}\b/g, '…')
	return [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null, first].filter(Boolean).join(' ').slice(0, 300)
}

/**
 * Sends what the outbox holds [the email decision records]: claims each due mail with a lease
 * (a conditional update only one worker wins), sends it with a Message-ID derived from its row,
 * then marks it sent. A failure is retried with backoff; a worker that dies between sending and
 * marking leaves a lease that runs out, and the mail is sent again with the same Message-ID
 * (receivers drop the repeat): delivery is at least once, never lost.
 */
export function mailWorker({
	db,
	transport,
	from,
	messageIdHost,
	renderers,
	maxPerMinute = null,
	now = () => Date.now(),
}: {
	db: Db
	transport: Transport
	from: string
	messageIdHost: string
	renderers: Record<string, Renderer>
	/** The most mails this worker hands to SMTP in any minute (the operator's EMAIL_MAX_PER_MINUTE); null: no cap. */
	maxPerMinute?: number | null
	now?: () => number
}) {
	// When each of the last `maxPerMinute` sends started: a sliding minute, in this process.
	const recent: number[] = []
	const roomNow = () => {
		if (maxPerMinute === null) return true
		while (recent.length > 0 && recent[0]! <= now() - 60_000) recent.shift()
		return recent.length < maxPerMinute
	}
	async function sendOne(row: { id: string; storeId: string; kind: string; subjectId: string; toAddress: string; attempts: number }) {
		const leaseUntil = new Date(now() + LEASE_MS)
		const claimed = await db.outboxMail.updateMany({
			where: { id: row.id, status: 'pending', attempts: row.attempts, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(now()) } }] },
			data: { leaseUntil, attempts: { increment: 1 } },
		})
		if (claimed.count !== 1) return 'taken' as const
		const attempts = row.attempts + 1
		if (maxPerMinute !== null) recent.push(now())
		try {
			const render = renderers[row.kind]
			const mail = render ? await render(row) : null
			if (!mail) {
				await db.outboxMail.updateMany({
					where: { id: row.id },
					data: { status: 'failed', leaseUntil: null, lastError: render ? 'nothing to send: what it was about is gone' : `unknown kind ${row.kind}` },
				})
				return 'dropped' as const
			}
			await transport.sendMail({
				from,
				to: row.toAddress,
				subject: mail.subject,
				text: mail.text,
				html: mail.html,
				messageId: `<${row.id}@${messageIdHost}>`,
				headers: mailHeaders(mail),
			})
			await db.outboxMail.updateMany({ where: { id: row.id }, data: { status: 'sent', sentAt: new Date(now()), leaseUntil: null, lastError: null } })
			return 'sent' as const
		} catch (error) {
			const failed = attempts >= MAX_ATTEMPTS
			await db.outboxMail.updateMany({
				where: { id: row.id },
				data: { status: failed ? 'failed' : 'pending', leaseUntil: null, lastError: reasonOf(error), nextAttemptAt: new Date(now() + backoffMs(attempts)) },
			})
			log.warn({ mail: row.id, kind: row.kind, attempts, failed }, `[email] could not send (${reasonOf(error)})${failed ? '; given up' : '; will retry'}`)
			return 'retry' as const
		}
	}

	/**
	 * Sends the mails that are due, a few at a time, within the rate: a mail of one person's own
	 * (an Order's, a reset link) before any newsletter campaign's (`priority` 0 before 1), so a
	 * campaign of thousands never delays a receipt. Returns what happened to each.
	 */
	async function runOnce(batch = 20) {
		if (!roomNow()) return []
		const at = new Date(now())
		const due = await db.outboxMail.findMany({
			where: { status: 'pending', nextAttemptAt: { lte: at }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: at } }] },
			orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
			take: batch,
			select: { id: true, storeId: true, kind: true, subjectId: true, toAddress: true, attempts: true },
		})
		const results: string[] = []
		for (const row of due) {
			if (!roomNow()) break
			results.push(await sendOne(row))
		}
		return results
	}

	let timer: NodeJS.Timeout | undefined
	let running: Promise<unknown> = Promise.resolve()
	let stopped = false
	const tick = () => {
		running = runOnce()
			.catch((error) => log.warn({ err: error }, '[email] the outbox could not be read; trying again'))
			.finally(() => {
				if (!stopped) timer = setTimeout(tick, 2_000).unref()
			})
	}
	return {
		runOnce,
		start() {
			tick()
			return this
		},
		async stop() {
			stopped = true
			clearTimeout(timer)
			await running
		},
	}
}
