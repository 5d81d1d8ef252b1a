/**
 * Newsletter campaigns through the built server and a real SMTP server [R136, R137]: without
 * JavaScript, an admin mails a test to their own address from /admin/newsletter, then sends the
 * campaign to the confirmed subscribers, each getting one copy with their own unsubscribe link
 * and the RFC 8058 headers, and sees the progress. Bad input answers 400, a Customer 403.
 */
import { randomUUID } from 'node:crypto'
import type { Db } from '../../app/data/db.server'
import { createDb } from '../../app/data/db.server'
import { subscribersOf } from '../helpers/newsletter'
import { smtpServer, type Received } from '../helpers/smtp'
import { expect, signUp, submitSignInForm, test } from './support/fixtures'
import { startStoreProcess, type StoreProcess } from './support/store-process'

const header = (mail: Received, name: string) => (mail.headerLines.find((line) => line.key === name)?.line ?? '').replace(/\r?\n[ \t]+/g, ' ')

test.describe('newsletter campaigns', () => {
	test.describe.configure({ timeout: 120_000 })
	test.use({ javaScriptEnabled: false })
	let smtp: Awaited<ReturnType<typeof smtpServer>>
	let store: StoreProcess
	let db: Db
	let storeId: string

	test.beforeAll(async () => {
		// A store process of its own (with sending on) starts in more than the default 30 s on a busy machine.
		test.setTimeout(120_000)
		smtp = await smtpServer()
		store = await startStoreProcess({ env: { EMAIL_SMTP_URL: smtp.url, EMAIL_FROM: 'Shop <shop@example.com>' } })
		db = createDb(store.databaseUrl)
		storeId = (await db.store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })).id
	})
	test.afterAll(async () => {
		await db?.$disconnect()
		await store?.stop()
		await smtp?.stop()
	})

	test('an admin sends a test to themselves, then the campaign to each confirmed subscriber once [R136, R137]', async ({ page }) => {
		const readers = Array.from({ length: 3 }, (_, i) => `reader-${i}-${Date.now()}@example.com`)
		for (const email of readers) await subscribersOf(db, storeId).create({ email, confirmed_at: new Date(), unsubscribed_at: null })
		await subscribersOf(db, storeId).create({ email: `left-${Date.now()}@example.com`, confirmed_at: new Date(), unsubscribed_at: new Date() })
		const subject = `Autumn ${randomUUID().slice(0, 6)}`

		await page.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin%2Fnewsletter`)
		await submitSignInForm(page, store.admin.email, store.admin.password)
		await expect(page).toHaveURL(`${store.origin}/admin/newsletter`)
		const form = page.getByTestId('campaign-form')
		await form.getByLabel('Subject').fill(subject)
		await form.getByLabel(/^Text/).fill('New scarves.\n\nSee you soon.')
		await form.getByRole('button', { name: 'Send me a test' }).click()
		await expect(page).toHaveURL(`${store.origin}/admin/newsletter/campaigns`)
		await expect(page.getByTestId('flash')).toContainText(`A test is on its way to ${store.admin.email}`)
		const test = await smtp.next(store.admin.email, (mail) => mail.subject === `[Test] ${subject}`, 30_000)
		expect(header(test, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')

		await page.goto(`${store.origin}/admin/newsletter`)
		await form.getByLabel('Subject').fill(subject)
		await form.getByLabel(/^Text/).fill('New scarves.\n\nSee you soon.')
		await form.getByRole('button', { name: 'Send to all confirmed subscribers' }).click()
		await expect(page.getByTestId('flash')).toContainText('Queued for 3 confirmed subscribers.')
		for (const email of readers) {
			const mail = await smtp.next(email, (m) => m.subject === subject, 30_000)
			expect(header(mail, 'list-unsubscribe')).toMatch(/^List-Unsubscribe:\s*<https?:\/\/[^>]+\/newsletter\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/)
		}
		await expect
			.poll(async () => {
				await page.reload()
				return page.getByTestId('campaign-progress').first().textContent()
			})
			.toContain('3 sent · 0 pending · 0 failed')
		expect(smtp.received.filter((mail) => mail.subject === subject)).toHaveLength(3)
		expect(smtp.received.filter((mail) => mail.subject === `[Test] ${subject}`).map((mail) => mail.envelopeTo)).toEqual([[store.admin.email]])
	})

	test('bad input is a 400 with nothing queued, and a Customer is refused [R136]', async ({ page, request }) => {
		await page.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin%2Fnewsletter`)
		await submitSignInForm(page, store.admin.email, store.admin.password)
		await expect(page).toHaveURL(`${store.origin}/admin/newsletter`)
		const before = await db.outboxMail.count()
		const post = (form: Record<string, string>) =>
			page.request.post(`${store.origin}/admin/newsletter/campaigns`, { form, headers: { Origin: store.origin }, maxRedirects: 0 })
		const forms: Array<Record<string, string>> = [
			{ subject: '', body: 'Hi', intent: 'send' },
			{ subject: 'Hi', body: '', intent: 'test' },
			{ subject: 'Hi', body: 'Hi', intent: 'everyone' },
			{ subject: 'Hi', body: 'Hi', intent: 'send', storeId: 'another' },
			{ subject: 'Hi', body: 'Hi', intent: 'send', idempotencyKey: 'not-a-uuid' },
		]
		for (const form of forms) {
			expect((await post(form)).status(), JSON.stringify(form)).toBe(400)
		}
		expect(await db.outboxMail.count()).toBe(before)
		// A Customer (on the shared server: the guard is the same code) is refused before anything is read.
		await signUp(request)
		const refused = await request.post('/admin/newsletter/campaigns', { form: { subject: 'Hi', body: 'Hi', intent: 'send' }, maxRedirects: 0 })
		expect(refused.status()).toBe(403)
		expect(await db.outboxMail.count()).toBe(before)
	})
})
