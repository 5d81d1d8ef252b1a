/**
 * Mail as shoppers get it, through a real SMTP server (smtp-server) that the store's outbox
 * worker delivers to: the order confirmation and its link, notices when an admin moves the
 * Order, and the newsletter's double opt-in and one-click unsubscribe (RFC 8058).
 */
import { expect, test } from '@playwright/test'
import { createDb, type Db } from '../../app/data/db.server'
import { newsletterToken } from '../../app/newsletter/newsletter.server'
import { subscribersOf } from '../helpers/newsletter'
import { smtpServer } from '../helpers/smtp'
import { fillCheckout, submitSignInForm } from './support/fixtures'
import { startStoreProcess, type StoreProcess } from './support/store-process'

test.describe('email through the outbox', () => {
	test.describe.configure({ timeout: 90_000 })
	let smtp: Awaited<ReturnType<typeof smtpServer>>
	let store: StoreProcess
	let db: Db
	let storeId: string
	const subscribers = () => subscribersOf(db, storeId)

	test.beforeAll(async () => {
		smtp = await smtpServer()
		store = await startStoreProcess({ env: { EMAIL_SMTP_URL: smtp.url, EMAIL_FROM: 'Shop <shop@example.com>', PASSWORD_RECOVERY: 'on' } })
		db = createDb(store.databaseUrl)
		storeId = (await db.store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })).id
	})
	test.afterAll(async () => {
		await db?.$disconnect()
		await store?.stop()
		await smtp?.stop()
	})

	test('a guest’s checkout sends a confirmation whose link opens the Order; an admin’s “paid” sends a notice', async ({ page }) => {
		const email = `buyer-${Date.now()}@example.com`
		await page.goto(`${store.origin}/products/canvas-tote`)
		await page.getByLabel('Quantity').fill('2')
		await page.getByRole('button', { name: 'Add to cart' }).click()
		// The add has landed (the cart page shows it) before checkout is opened.
		await expect(page).toHaveURL(`${store.origin}/cart`)
		await page.goto(`${store.origin}/checkout`)
		await fillCheckout(page, email)
		await page.getByRole('button', { name: 'Place order' }).click()
		await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
		const orderUrl = page.url()
		await expect(page.getByTestId('order-mail-note')).toContainText(`on its way to ${email}`)
		const number = (await page.getByRole('heading', { name: /Order #/ }).textContent())?.match(/#(\d+)/)?.[1]

		const mail = await smtp.next(email, (m) => m.subject?.includes(`Your order #${number}`) ?? false)
		expect(mail.text).toContain('2 × Canvas tote bag')
		expect(mail.text).toContain('Total: $48.00')
		// No instructions set in this store yet: the buyer is told the shop will send them.
		expect(mail.text).toContain(`quote “Order ${number}” when you pay`)
		const link = /https?:\/\/\S+\/orders\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0]
		expect(link).toBe(orderUrl)
		expect(mail.html).toContain(`href="${orderUrl}"`)
		// No internal id in what the shopper receives.
		const order = await db.order.findFirstOrThrow({ where: { storeId, number: Number(number) }, select: { id: true } })
		expect(`${mail.text}${mail.html}`).not.toContain(order.id)
		await page.goto(link!)
		await expect(page.getByRole('heading', { name: `Thank you! Order #${number}` })).toBeVisible()

		// The admin marks it paid: one notice, even when the same change is asked for twice.
		const admin = await page.context().browser()!.newContext()
		const adminPage = await admin.newPage()
		await adminPage.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin%2Forders%2F${number}`)
		await submitSignInForm(adminPage, store.admin.email, store.admin.password)
		await adminPage.getByRole('button', { name: 'Mark paid' }).click()
		await expect(adminPage.getByTestId('flash')).toBeVisible()
		await smtp.next(email, (m) => m.subject?.includes(`Order #${number} is paid`) ?? false)
		expect(smtp.received.filter((m) => m.subject?.includes(`Order #${number} is paid`))).toHaveLength(1)

		// The outbox page shows both sent; a resend goes out again, once, and is in the activity log.
		// The worker records "sent" just after the mail server accepted the message: the page is
		// loaded again until it has.
		const paidRow = adminPage.locator('tr', { hasText: 'order-paid' }).filter({ hasText: email })
		await expect(async () => {
			await adminPage.goto(`${store.origin}/admin/email?status=sent`)
			await expect(paidRow).toHaveAttribute('data-status', 'sent', { timeout: 1_000 })
		}).toPass({ timeout: 15_000 })
		await paidRow.getByRole('button', { name: 'Resend' }).click()
		await expect(adminPage.getByTestId('flash')).toContainText('sent again')
		await expect.poll(() => smtp.received.filter((m) => m.subject?.includes(`Order #${number} is paid`)).length, { timeout: 15_000 }).toBe(2)
		await adminPage.goto(`${store.origin}/admin/activity`)
		await expect(adminPage.getByText('Mail sent again')).toBeVisible()
		// An unknown id is refused and changes nothing.
		const forged = await adminPage.request.post(`${store.origin}/admin/email`, {
			form: { intent: 'resend', id: 'no-such-mail' },
			headers: { origin: store.origin },
			maxRedirects: 0,
		})
		expect(forged.status()).toBe(404)
		await admin.close()
	})

	test('the newsletter is double opt-in: the page shows no unsubscribe link, the owner confirms, and one click unsubscribes [R40]', async ({ page }) => {
		const email = `reader-${Date.now()}@example.com`
		await page.goto(`${store.origin}/newsletter`)
		await page.getByLabel('Email').fill(email)
		await page.getByRole('button', { name: 'Subscribe' }).click()
		await expect(page.getByTestId('newsletter-done')).toContainText('a link to confirm')
		expect(await page.content()).not.toContain('/newsletter/unsubscribe')
		expect(await subscribers().find({ email })).toMatchObject({ confirmed_at: null })

		const mail = await smtp.next(email, (m) => m.subject?.startsWith('Confirm your subscription') ?? false)
		const confirm = /https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9_.-]+/.exec(mail.text ?? '')?.[0]
		expect(confirm).toBeTruthy()
		// Opening the link (as a mail scanner does) confirms nothing; the button does.
		await page.goto(confirm!)
		expect((await subscribers().find({ email }))!.confirmed_at).toBeNull()
		await page.getByRole('button', { name: 'Confirm' }).click()
		await expect(page.getByTestId('newsletter-confirmed')).toContainText(email)
		expect((await subscribers().find({ email }))!.confirmed_at).not.toBeNull()

		// Typing the address again sends no second confirmation the same day.
		await page.goto(`${store.origin}/newsletter`)
		await page.getByLabel('Email').fill(email)
		await page.getByRole('button', { name: 'Subscribe' }).click()
		await expect(page.getByTestId('newsletter-done')).toBeVisible()
		expect(await db.outboxMail.count({ where: { storeId, toAddress: email, kind: 'newsletter-confirm' } })).toBe(1)

		// One-click unsubscribe as a mail provider sends it: no cookie, no Origin, the token in the link.
		const other = `other-${Date.now()}@example.com`
		await subscribers().create({ email: other, confirmed_at: new Date(), unsubscribed_at: null })
		const token = newsletterToken({ storeId, email, purpose: 'unsubscribe' }, store.secret)
		const oneClick = (t: string) =>
			fetch(`${store.origin}/newsletter/unsubscribe?${new URLSearchParams({ token: t })}`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'List-Unsubscribe=One-Click',
			})
		// A confirmation link is not an unsubscribe link, a forged one is refused: nothing changes.
		const confirmToken = new URL(confirm!).searchParams.get('token')!
		expect((await oneClick(confirmToken)).status).toBe(400)
		expect((await oneClick(`${token.split('.')[0]}.${'A'.repeat(43)}`)).status).toBe(400)
		expect((await oneClick('garbage')).status).toBe(400)
		expect((await subscribers().find({ email }))!.unsubscribed_at).toBeNull()
		expect((await oneClick(token)).status).toBe(200)
		expect((await subscribers().find({ email }))!.unsubscribed_at).not.toBeNull()
		// Store Admin's list shows the address confirmed, and exports it; a formula-looking address is made inert.
		await subscribers().create({ email: '=cmd@example.com', confirmed_at: new Date(), unsubscribed_at: null })
		const admin = await page.context().browser()!.newContext()
		const adminPage = await admin.newPage()
		await adminPage.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin%2Fnewsletter%3Fstate%3Dunsubscribed`)
		await submitSignInForm(adminPage, store.admin.email, store.admin.password)
		await expect(adminPage.getByRole('cell', { name: email, exact: true })).toBeVisible()
		const csv = await adminPage.request.get(`${store.origin}/admin/newsletter/export?state=confirmed`)
		expect(csv.headers()['content-type']).toContain('text/csv')
		const text = await csv.text()
		expect(text.split('\r\n')[0]).toBe('email,subscribed_at,confirmed_at,unsubscribed_at')
		expect(text).toContain(`"${other}"`)
		expect(text).toContain(`"'=cmd@example.com"`)
		expect(text).not.toContain(`"${email}"`)
		await admin.close()
		expect((await fetch(`${store.origin}/admin/newsletter/export?state=confirmed`, { redirect: 'manual' })).status).toBe(302)

		// The token worked for its own address only.
		expect((await subscribers().find({ email: other }))!.unsubscribed_at).toBeNull()
		expect(smtp.received.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1)
	})

	test('every newsletter mail carries its reader’s unsubscribe link and List-Unsubscribe headers; “leave the list” mails it; a token in the body alone works and says so [R122]', async ({
		page,
	}) => {
		/** A mail's raw header line, and the unsubscribe link it names. */
		const header = (mail: Awaited<ReturnType<typeof smtp.next>>, name: string) =>
			(mail.headerLines.find((line) => line.key === name)?.line ?? '').replace(/\r?\n[ \t]+/g, ' ')
		const unsubscribeLink = (mail: Awaited<ReturnType<typeof smtp.next>>) => {
			expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
			const link = /^List-Unsubscribe:\s*<(https?:\/\/[^>]+\/newsletter\/unsubscribe\?token=[A-Za-z0-9_.-]+)>$/.exec(header(mail, 'list-unsubscribe'))?.[1]
			expect(link).toBeTruthy()
			expect(mail.text).toContain(`Unsubscribe: ${link}`)
			return link!
		}
		const post = (path: string, body: string) =>
			fetch(`${store.origin}${path}`, { method: 'POST', headers: { origin: store.origin, 'content-type': 'application/x-www-form-urlencoded' }, body })

		// The confirmation mail already carries the reader's own link and headers.
		const reader = `unsub-${Date.now()}@example.com`
		await page.goto(`${store.origin}/newsletter`)
		await page.getByLabel('Email').fill(reader)
		await page.getByRole('button', { name: 'Subscribe' }).click()
		await expect(page.getByTestId('newsletter-done')).toBeVisible()
		const confirmation = await smtp.next(reader, (m) => m.subject?.startsWith('Confirm your subscription') ?? false)
		const readerLink = unsubscribeLink(confirmation)
		// Confirmed by a POST whose token is in its body only: it confirms, and the answer says so.
		const confirmToken = /\/newsletter\/confirm\?token=([A-Za-z0-9_.-]+)/.exec(confirmation.text ?? '')?.[1] ?? ''
		const confirmed = await post('/newsletter/confirm', new URLSearchParams({ token: confirmToken }).toString())
		expect(confirmed.status).toBe(200)
		expect(await confirmed.text()).toContain('is on the list')
		expect((await subscribers().find({ email: reader }))!.confirmed_at).not.toBeNull()
		// A mail client's own button: one POST to the header's link.
		const oneClick = await fetch(readerLink, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'List-Unsubscribe=One-Click',
		})
		expect(oneClick.status).toBe(200)
		expect((await subscribers().find({ email: reader }))!.unsubscribed_at).not.toBeNull()

		// "Leave the list": the same answer for an address on the list and one that is not; only the first gets mail.
		const listed = `listed-${Date.now()}@example.com`
		const stranger = `stranger-${Date.now()}@example.com`
		await subscribers().create({ email: listed, confirmed_at: new Date(), unsubscribed_at: null })
		const answers = []
		for (const address of [listed, stranger]) {
			await page.goto(`${store.origin}/newsletter`)
			await page.getByLabel('Address on the list').fill(address)
			await page.getByRole('button', { name: 'Send me a link to leave' }).click()
			answers.push(await page.getByTestId('newsletter-leave-sent').textContent())
		}
		expect(answers[0]).toBe(answers[1])
		const leave = await smtp.next(listed, (m) => m.subject?.startsWith('Leave ') ?? false)
		const listedLink = unsubscribeLink(leave)
		expect(leave.text).toContain(`Leave the newsletter: ${listedLink}`)
		expect(await db.outboxMail.count({ where: { storeId, toAddress: stranger } })).toBe(0)

		// Its token posted in a body alone unsubscribes, and says so; a forged one changes nothing and says that.
		const token = new URL(listedLink).searchParams.get('token')!
		const forged = await post('/newsletter/unsubscribe', new URLSearchParams({ token: `${token.split('.')[0]}.${'A'.repeat(43)}` }).toString())
		expect(forged.status).toBe(400)
		expect((await subscribers().find({ email: listed }))!.unsubscribed_at).toBeNull()
		const left = await post('/newsletter/unsubscribe', new URLSearchParams({ token }).toString())
		expect(left.status).toBe(200)
		expect(await left.text()).toContain('will get no more newsletters')
		expect((await subscribers().find({ email: listed }))!.unsubscribed_at).not.toBeNull()
	})

	test('bad addresses are refused with nothing written or sent: header injection, 10 KB, not an address', async ({ request }) => {
		const before = await db.outboxMail.count()
		for (const email of ['reader@example.com\r\nBcc: victim@example.com', `${'a'.repeat(10_000)}@example.com`, 'not-an-address']) {
			const answer = await request.post(`${store.origin}/newsletter`, { form: { email }, headers: { origin: store.origin } })
			expect(answer.status(), email.slice(0, 40)).toBeGreaterThanOrEqual(400)
			expect(answer.status()).toBeLessThan(500)
		}
		expect(await db.outboxMail.count()).toBe(before)
		expect(await db.$queryRawUnsafe(`SELECT "email" FROM "mod_newsletter" WHERE "email" LIKE '%victim%'`)).toEqual([])
		expect(smtp.received.some((m) => m.envelopeTo.includes('victim@example.com'))).toBe(false)
	})

	test('password recovery when turned on: the same answer for any address, a single-use link, every old session ended [R21]', async ({ browser }) => {
		const email = `forgetful-${Date.now()}@example.com`
		const oldPassword = `Old-${Date.now()}-pass-phrase`
		const newPassword = `New-${Date.now()}-other-phrase`
		// Two browsers signed in to the same account.
		const first = await browser.newContext()
		const page = await first.newPage()
		await page.goto(`${store.origin}/sign-up`)
		await page.getByLabel('Name').fill('Forgetful')
		await page.getByLabel('Email').fill(email)
		await page.getByLabel('Password').fill(oldPassword)
		await page.getByRole('button', { name: /Create account|Sign up/ }).click()
		await expect(page).toHaveURL(/\/account/)
		const second = await browser.newContext()
		const other = await second.newPage()
		await other.goto(`${store.origin}/sign-in`)
		await submitSignInForm(other, email, oldPassword)
		await expect(other).toHaveURL(/\/account/)

		// Asking for a reset: an unknown address gets the same answer and no mail.
		const stranger = await (await browser.newContext()).newPage()
		for (const address of [`nobody-${Date.now()}@example.com`, email]) {
			await stranger.goto(`${store.origin}/sign-in`)
			await stranger.getByRole('link', { name: 'Forgot password?' }).click()
			// The sign-in form has an Email field too: fill the new page's once it is shown.
			await expect(stranger.getByRole('heading', { name: 'Forgot password' })).toBeVisible()
			await stranger.getByLabel('Email').fill(address)
			await stranger.getByRole('button', { name: 'Send me a link' }).click()
			await expect(stranger.getByTestId('reset-requested')).toBeVisible()
		}
		const mail = await smtp.next(email, (m) => m.subject?.startsWith('Reset your password') ?? false)
		const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0]
		expect(link).toBeTruthy()
		expect(smtp.received.some((m) => m.subject?.startsWith('Reset your password') && !m.envelopeTo.includes(email))).toBe(false)

		// A weak password is refused and the link still works; then the new password is set.
		await stranger.goto(link!)
		await stranger.getByLabel('New password').fill('password')
		await stranger.getByRole('button', { name: 'Set the new password' }).click()
		await expect(stranger.getByText('Choose a stronger password')).toBeVisible()
		await stranger.getByLabel('New password').fill(newPassword)
		await stranger.getByRole('button', { name: 'Set the new password' }).click()
		await expect(stranger).toHaveURL(/\/sign-in/)

		// Both old sessions are gone; the old password no longer works, the new one does.
		for (const signedIn of [page, other]) {
			await signedIn.goto(`${store.origin}/account`)
			await expect(signedIn).toHaveURL(/\/sign-in/)
		}
		const signIn = (password: string) =>
			fetch(`${store.origin}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: store.origin },
				body: JSON.stringify({ email, password }),
			})
		expect((await signIn(oldPassword)).status).toBe(401)
		expect((await signIn(newPassword)).status).toBe(200)

		// The link is single use; a made-up token is refused.
		await stranger.goto(link!)
		await stranger.getByLabel('New password').fill(`${newPassword}-again`)
		await stranger.getByRole('button', { name: 'Set the new password' }).click()
		await expect(stranger.getByText('expired or was already used')).toBeVisible()
		const made = await fetch(`${store.origin}/reset-password?token=made-up-token-123`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: store.origin },
			body: new URLSearchParams({ token: 'made-up-token-123', newPassword: `${newPassword}-x` }).toString(),
		})
		expect(made.status).toBe(400)
		await Promise.all([first.close(), second.close(), stranger.context().close()])
	})
})
