/**
 * Newsletter campaigns over a real SMTP server, on both engines [R136, R137]: a test goes to the
 * admin alone; a campaign reaches every confirmed subscriber exactly once through the outbox,
 * across a restart of the worker, never an address that left (even mid-send), each mail with its
 * recipient's own unsubscribe link and the RFC 8058 headers; the operator's rate holds, and a
 * campaign waits behind a receipt.
 */
import { randomUUID } from 'node:crypto'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { subscribersOf } from '../../tests/helpers/newsletter'
import { smtpServer, type Received } from '../../tests/helpers/smtp'
import { getConfig } from '../config/env.server'
import type { AdminViewer } from '../data/viewer'
import { enqueueMail } from '../email/outbox.server'
import { plainMail } from '../email/render'
import { mailWorker, type Transport } from '../email/worker.server'
import { adminCampaignsRepository, campaignMailRenderer } from './campaigns.server'
import { readUnsubscribeToken } from './newsletter.server'

const header = (mail: Received, name: string) => (mail.headerLines.find((line) => line.key === name)?.line ?? '').replace(/\r?\n[ \t]+/g, ' ')

describe.each(PROVIDERS)('newsletter campaigns on %s', (provider) => {
	let t: TestDatabase & { close(): Promise<void> }
	let smtp: Awaited<ReturnType<typeof smtpServer>>
	let admin: AdminViewer
	let clock = Date.now() + 5 * 60_000
	const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, pool: true }) as unknown as Transport
	const worker = (maxPerMinute: number | null = null) =>
		mailWorker({
			db: t.db,
			transport: transport(),
			from: 'Shop <shop@example.com>',
			messageIdHost: 'shop.example.com',
			renderers: {
				'newsletter-campaign': campaignMailRenderer(t.db),
				'newsletter-campaign-test': campaignMailRenderer(t.db, { test: true }),
				'order-placed': async ({ subjectId }) => plainMail({ subject: `Order ${subjectId}`, paragraphs: ['Thanks'] }),
			},
			maxPerMinute,
			now: () => clock,
		})
	const campaigns = () => adminCampaignsRepository(t.db, admin, { sending: () => true })
	const list = () => subscribersOf(t.db, t.storeId)
	const copiesTo = (address: string, subject: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address) && mail.subject === subject)
	/** `count` confirmed subscribers, their addresses tagged so each test has its own. */
	async function confirmed(tag: string, count: number) {
		const emails = Array.from({ length: count }, (_, i) => `${tag}-${i}@example.com`)
		for (const email of emails) await list().create({ email, confirmed_at: new Date(), unsubscribed_at: null })
		return emails
	}
	/** Runs the worker until it finds nothing more to send, or `until` says stop. */
	async function drain(w: ReturnType<typeof worker>, until: () => Promise<boolean> = async () => false) {
		for (;;) {
			const done = await w.runOnce(50)
			if (done.length === 0 || (await until())) return
		}
	}
	const clearOutbox = () => t.db.outboxMail.deleteMany({ where: { storeId: t.storeId } })

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		smtp = await smtpServer()
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(async () => {
		await smtp.stop()
		await t.close()
	})

	it('sends 500 subscribers one copy each across a worker restart, and none to one who left mid-send [R136, R137]', async () => {
		await clearOutbox()
		const emails = await confirmed(`c500-${provider}`, 500)
		// Not confirmed yet, and left: neither is queued.
		await list().create({ email: `pending-${provider}@example.com`, confirmed_at: null, unsubscribed_at: null })
		await list().create({ email: `gone-${provider}@example.com`, confirmed_at: new Date(), unsubscribed_at: new Date() })
		const subject = `Spring news ${randomUUID().slice(0, 6)}`
		const key = randomUUID()
		const queued = await campaigns().send({ subject, body: 'New mugs are in.\n\nCome and see.', idempotencyKey: key })
		expect(queued).toMatchObject({ recipients: 500, replayed: false })
		// The same form again (a double click): nothing more queued.
		expect(await campaigns().send({ subject, body: 'New mugs are in.', idempotencyKey: key })).toMatchObject({ id: queued.id, replayed: true })
		expect(await t.db.outboxMail.count({ where: { subjectId: queued.id } })).toBe(500)

		// The first worker sends about half, then the process is gone.
		const sentSoFar = () => t.db.outboxMail.count({ where: { subjectId: queued.id, status: 'sent' } })
		await drain(worker(), async () => (await sentSoFar()) >= 250)
		const half = await sentSoFar()
		expect(half).toBeGreaterThanOrEqual(250)
		expect(half).toBeLessThan(500)
		// Meanwhile one whose mail has not gone yet leaves the list.
		const waiting = await t.db.outboxMail.findFirstOrThrow({ where: { subjectId: queued.id, status: 'pending' }, select: { toAddress: true } })
		const leaver = await list().find({ email: waiting.toAddress })
		await list().update(leaver!.id, { unsubscribed_at: new Date() })

		// A new worker (the restarted server) finishes the campaign from the table.
		await drain(worker())
		for (const email of emails) expect(copiesTo(email, subject), email).toHaveLength(email === waiting.toAddress ? 0 : 1)
		expect(smtp.received.filter((mail) => mail.subject === subject)).toHaveLength(499)
		expect((await campaigns().list()).find((c) => c.id === queued.id)?.progress).toEqual({ sent: 499, pending: 0, failed: 0, skipped: 1 })

		// Each mail carries its own reader's unsubscribe link, in the text and in the RFC 8058 headers.
		const mail = copiesTo(emails[7]!, subject)[0]!
		expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
		const link = /^List-Unsubscribe:\s*<(https?:\/\/[^>]+\/newsletter\/unsubscribe\?token=([A-Za-z0-9_.-]+))>$/.exec(header(mail, 'list-unsubscribe'))
		expect(link).not.toBeNull()
		expect(readUnsubscribeToken(link![2]!, t.storeId, { secret: getConfig().authSecret })).toEqual({ ok: true, email: emails[7] })
		expect(mail.text).toContain(link![1])
		expect(mail.text).toContain('Come and see.')
	}, 120_000)

	it('sends a test to the admin’s own address only, and refuses bad input with nothing queued [R136]', async () => {
		await clearOutbox()
		await confirmed(`test-${provider}`, 3)
		const subject = `Draft ${randomUUID().slice(0, 6)}`
		expect(await campaigns().test({ subject, body: 'Hello <b>there</b> & welcome' })).toEqual({ to: admin.email })
		await drain(worker())
		const received = smtp.received.filter((mail) => mail.subject === `[Test] ${subject}`)
		expect(received.map((mail) => mail.envelopeTo)).toEqual([[admin.email]])
		// Text stays text: the HTML part escapes it.
		expect(received[0]!.html).toContain('Hello &#60;b&#62;there&#60;/b&#62; &#38; welcome')
		expect(received[0]!.html).not.toContain('<b>')
		expect(await campaigns().list()).not.toContainEqual(expect.objectContaining({ subject }))

		const before = await t.db.outboxMail.count()
		for (const [input, field] of [
			[{ subject: '', body: 'x' }, 'subject'],
			[{ subject: 'a\nb', body: 'x' }, 'subject'],
			[{ subject: 'x'.repeat(151), body: 'x' }, 'subject'],
			[{ subject: 'Hi', body: '   \n\n  ' }, 'body'],
			[{ subject: 'Hi', body: 'x'.repeat(20_001) }, 'body'],
		] as const) {
			await expect(campaigns().send({ ...input, idempotencyKey: randomUUID() })).rejects.toMatchObject({ status: 400, field })
			await expect(campaigns().test(input)).rejects.toMatchObject({ status: 400, field })
		}
		// Without sending set up, nothing is written at all.
		const off = adminCampaignsRepository(t.db, admin, { sending: () => false })
		await expect(off.send({ subject: 'Hi', body: 'x', idempotencyKey: randomUUID() })).rejects.toMatchObject({ status: 409 })
		await expect(off.test({ subject: 'Hi', body: 'x' })).rejects.toMatchObject({ status: 409 })
		expect(await t.db.outboxMail.count()).toBe(before)
		// Another Store's admin sees none of this Store's campaigns.
		const other = adminCampaignsRepository(t.db, { ...admin, storeId: 'another-store' }, { sending: () => true })
		expect(await other.list()).toEqual([])
	})

	it('keeps the operator’s rate, and sends a receipt before a waiting campaign [R136]', async () => {
		await clearOutbox()
		await confirmed(`rate-${provider}`, 25)
		const subject = `Rated ${randomUUID().slice(0, 6)}`
		const queued = await campaigns().send({ subject, body: 'Slowly.', idempotencyKey: randomUUID() })
		const order = randomUUID()
		await t.db.$transaction((tx) =>
			enqueueMail(tx, { storeId: t.storeId, kind: 'order-placed', subjectId: order, toAddress: 'buyer@example.com', dedupeKey: `order:${order}:placed` }, true),
		)
		const w = worker(10)
		expect(await w.runOnce(1)).toEqual(['sent'])
		expect(smtp.received.at(-1)?.subject).toBe(`Order ${order}`)
		// Nine more fit in this minute; then nothing until it has passed.
		expect(await w.runOnce(50)).toHaveLength(9)
		expect(await w.runOnce(50)).toEqual([])
		clock += 60_001
		expect(await w.runOnce(50)).toHaveLength(10)
		const sent = await t.db.outboxMail.count({ where: { subjectId: queued.id, status: 'sent' } })
		expect(sent).toBe(19)
	})
})
