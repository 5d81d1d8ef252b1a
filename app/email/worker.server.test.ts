import { randomUUID } from 'node:crypto'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openPrivateTestDatabase } from '../../tests/helpers/databases'
import { smtpServer } from '../../tests/helpers/smtp'
import { enqueueMail } from './outbox.server'
import { plainMail } from './render'
import { backoffMs, LEASE_MS, MAX_ATTEMPTS, mailWorker, type Transport } from './worker.server'

describe.each(PROVIDERS)('the mail outbox on %s', (provider) => {
	let t: TestDatabase & { close(): Promise<void> }
	let smtp: Awaited<ReturnType<typeof smtpServer>>
	// A few minutes ahead of the database's own clock, so a mail written now is due; tests move it on.
	let clock = Date.now() + 5 * 60_000
	const now = () => clock
	const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }) as unknown as Transport
	const renderers = { 'order-placed': async ({ subjectId }: { subjectId: string }) => plainMail({ subject: `Order ${subjectId}`, paragraphs: ['Thanks'] }) }
	const worker = (t2: Transport = transport()) =>
		mailWorker({ db: t.db, transport: t2, from: 'Shop <shop@example.com>', messageIdHost: 'shop.example.com', renderers, now })
	const enqueue = (subjectId: string, to: string) =>
		t.db.$transaction((tx) =>
			enqueueMail(tx, { storeId: t.storeId, kind: 'order-placed', subjectId, toAddress: to, dedupeKey: `order:${subjectId}:placed` }, true),
		)
	const row = (subjectId: string) => t.db.outboxMail.findFirstOrThrow({ where: { storeId: t.storeId, subjectId } })

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		smtp = await smtpServer()
	})
	afterAll(async () => {
		await smtp.stop()
		await t.close()
	})

	it('writes a mail only with the change that causes it: a rolled-back transaction leaves none', async () => {
		const id = randomUUID()
		await expect(
			t.db.$transaction(async (tx) => {
				await enqueueMail(tx, { storeId: t.storeId, kind: 'order-placed', subjectId: id, toAddress: 'a@example.com', dedupeKey: `order:${id}:placed` }, true)
				throw new Error('the checkout failed')
			}),
		).rejects.toThrow('the checkout failed')
		expect(await t.db.outboxMail.count({ where: { subjectId: id } })).toBe(0)
	})

	it('keeps one mail per change however often the change is written, and none when sending is not configured', async () => {
		const id = randomUUID()
		await enqueue(id, 'b@example.com')
		await enqueue(id, 'b@example.com')
		expect(await t.db.outboxMail.count({ where: { subjectId: id } })).toBe(1)
		const off = randomUUID()
		await t.db.$transaction((tx) =>
			enqueueMail(tx, { storeId: t.storeId, kind: 'order-placed', subjectId: off, toAddress: 'c@example.com', dedupeKey: `x:${off}` }, false),
		)
		expect(await t.db.outboxMail.count({ where: { subjectId: off } })).toBe(0)
	})

	it('sends each due mail once over real SMTP, with a Message-ID of its own row', async () => {
		const id = randomUUID()
		await enqueue(id, 'd@example.com')
		await worker().runOnce(100)
		const mail = await smtp.next('d@example.com', (m) => m.subject === `Order ${id}`)
		const sent = await row(id)
		expect(sent).toMatchObject({ status: 'sent', attempts: 1, leaseUntil: null })
		expect(mail.messageId).toBe(`<${sent.id}@shop.example.com>`)
		expect(mail.from?.value[0]).toMatchObject({ name: 'Shop', address: 'shop@example.com' })
		await worker().runOnce(100)
		expect(smtp.received.filter((m) => m.subject === `Order ${id}`)).toHaveLength(1)
	})

	it('loses nothing while SMTP is down: retries with backoff and sends when it is back', async () => {
		const id = randomUUID()
		await enqueue(id, 'e@example.com')
		await smtp.stop()
		await worker().runOnce(100)
		let pending = await row(id)
		expect(pending).toMatchObject({ status: 'pending', attempts: 1 })
		expect(pending.lastError).toMatch(/ECONNREFUSED|ESOCKET|connect/i)
		expect(pending.nextAttemptAt.getTime()).toBe(clock + backoffMs(1))
		await smtp.start()
		// Not due yet: the backoff holds it back.
		await worker().runOnce(100)
		expect((await row(id)).status).toBe('pending')
		clock += backoffMs(1) + 1
		await worker().runOnce(100)
		pending = await row(id)
		expect(pending).toMatchObject({ status: 'sent', attempts: 2 })
		await smtp.next('e@example.com', (m) => m.subject === `Order ${id}`)
	})

	it('marks a mail failed after the last attempt, with the reason for the admin', async () => {
		const id = randomUUID()
		await enqueue(id, 'f@example.com')
		const refusing: Transport = { sendMail: () => Promise.reject(Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 })) }
		for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			await worker(refusing).runOnce(100)
			clock += backoffMs(MAX_ATTEMPTS) + 1
		}
		expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: '550 550 mailbox unavailable' })
	})

	it('a worker that dies between sending and marking loses nothing: the lease runs out and the mail goes again with the same Message-ID', async () => {
		const id = randomUUID()
		await enqueue(id, 'g@example.com')
		const real = transport()
		// Sends, then never returns: the process died before it could mark the mail sent.
		const dying: Transport = { sendMail: (mail) => real.sendMail(mail).then(() => new Promise(() => {})) }
		void worker(dying).runOnce(100)
		await smtp.next('g@example.com', (m) => m.subject === `Order ${id}`)
		expect((await row(id)).status).toBe('pending')
		// Another worker, while the lease holds, leaves it alone.
		expect(await worker().runOnce(100)).not.toContain('sent')
		clock += LEASE_MS + 1
		await worker().runOnce(100)
		const copies = smtp.received.filter((m) => m.subject === `Order ${id}`)
		expect(copies).toHaveLength(2)
		expect(new Set(copies.map((m) => m.messageId)).size).toBe(1)
		expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 })
	})

	it('lets exactly one of two workers claim a mail', async () => {
		const id = randomUUID()
		await enqueue(id, 'h@example.com')
		const results = await Promise.all([worker().runOnce(100), worker().runOnce(100)])
		expect(results.flat().filter((r) => r === 'sent')).toHaveLength(1)
		expect(smtp.received.filter((m) => m.subject === `Order ${id}`)).toHaveLength(1)
	})
})
