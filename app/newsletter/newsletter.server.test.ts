import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { subscribersOf } from '../../tests/helpers/newsletter'
import {
	confirmMailRenderer,
	leaveMailRenderer,
	newsletterMail,
	newsletterRepository,
	readUnsubscribeToken,
	UNSUBSCRIBE_TOKEN_DAYS,
	unsubscribeToken,
} from './newsletter.server'
import { mailHeaders, type RenderedMail } from '../email/render'
import { unverifiedScope } from '../data/scope'

const SECRET = 'q7Vd3L0s9PZx2mYt8KcR1wNf6HbJ4eUa5GiTo0Xp'

describe('unsubscribe links [R50] (newsletter is Sensitive)', () => {
	const token = unsubscribeToken({ storeId: 'store-1', email: 'a@example.com' }, SECRET)

	it('reads a link it signed', () => {
		expect(readUnsubscribeToken(token, 'store-1', { secret: SECRET })).toEqual({ ok: true, email: 'a@example.com' })
	})

	it('refuses a forged signature, a changed address, another Store and an expired link', () => {
		const [payload, signature] = token.split('.')
		const otherEmail = Buffer.from(JSON.stringify({ s: 'store-1', e: 'victim@example.com', x: 9_999_999_999 })).toString('base64url')
		expect(readUnsubscribeToken(`${payload}.${'A'.repeat(43)}`, 'store-1', { secret: SECRET })).toMatchObject({ ok: false, reason: 'forged' })
		expect(readUnsubscribeToken(`${otherEmail}.${signature}`, 'store-1', { secret: SECRET })).toMatchObject({ ok: false, reason: 'forged' })
		expect(readUnsubscribeToken(token, 'store-1', { secret: `${SECRET}x` })).toMatchObject({ ok: false, reason: 'forged' })
		expect(readUnsubscribeToken(token, 'store-2', { secret: SECRET })).toMatchObject({ ok: false, reason: 'other-store' })
		const later = Date.now() + (UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000
		expect(readUnsubscribeToken(token, 'store-1', { secret: SECRET, now: later })).toMatchObject({ ok: false, reason: 'expired' })
		for (const junk of ['', 'a', 'a.b.c', '.', 'x'.repeat(2000)]) {
			expect(readUnsubscribeToken(junk, 'store-1', { secret: SECRET }).ok, junk.slice(0, 5)).toBe(false)
		}
	})
})

describe.each(PROVIDERS)('newsletter subscribers on %s', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	it('keeps one row per address, resubscribes after an unsubscribe, and scopes to the Store', async () => {
		const email = `n-${Date.now()}@example.com`
		const list = newsletterRepository(unverifiedScope(t.db, t.storeId))
		await list.subscribe(email)
		await list.subscribe(email)
		expect(await subscribersOf(t.db, t.storeId).count({ email })).toBe(1)
		await list.unsubscribe(email)
		expect((await subscribersOf(t.db, t.storeId).find({ email }))!.unsubscribed_at).not.toBeNull()
		await list.subscribe(email)
		expect((await subscribersOf(t.db, t.storeId).find({ email }))!.unsubscribed_at).toBeNull()
		await newsletterRepository(unverifiedScope(t.db, 'another-store-id')).unsubscribe(email)
		expect((await subscribersOf(t.db, t.storeId).find({ email }))!.unsubscribed_at).toBeNull()
	})
})

describe.each(PROVIDERS)('a subscriber can always leave, on %s [R122]', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	/** The unsubscribe link a mail carries, checked to be that recipient's own in this Store. */
	function unsubscribeLinkOf(mail: RenderedMail, email: string) {
		expect(mail.listUnsubscribe).toBeDefined()
		const link = new URL(mail.listUnsubscribe!)
		expect(link.pathname).toBe('/newsletter/unsubscribe')
		expect(readUnsubscribeToken(link.searchParams.get('token') ?? '', t.storeId)).toEqual({ ok: true, email })
		expect(mail.text).toContain(`Unsubscribe: ${link.href}`)
		expect(mail.html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`)
		expect(mailHeaders(mail)).toEqual({ 'List-Unsubscribe': `<${link.href}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })
		return link
	}

	it('builds every newsletter mail with the recipient’s own unsubscribe link and the RFC 8058 headers [R122]', () => {
		const mail = newsletterMail({ storeId: t.storeId, email: 'reader@example.com', subject: 'Spring', paragraphs: ['New things.'] })
		unsubscribeLinkOf(mail, 'reader@example.com')
		const other = newsletterMail({ storeId: t.storeId, email: 'other@example.com', subject: 'Spring', paragraphs: ['New things.'] })
		expect(other.listUnsubscribe).not.toBe(mail.listUnsubscribe)
	})

	it('puts the unsubscribe link in the confirmation mail, which then keeps the address off the list [R122]', async () => {
		const email = `confirm-${Date.now()}@example.com`
		const list = newsletterRepository(unverifiedScope(t.db, t.storeId))
		await list.subscribe(email)
		const mail = await confirmMailRenderer(t.db)({ storeId: t.storeId, subjectId: email, toAddress: email })
		unsubscribeLinkOf(mail!, email)
		// The owner did not ask for it and unsubscribes: the confirmation link followed later adds nothing.
		await list.unsubscribe(email)
		expect(await list.confirm(email)).toBe('left')
		expect((await subscribersOf(t.db, t.storeId).find({ email }))!.confirmed_at).toBeNull()
	})

	it('mails “leave the list” its unsubscribe link, and says whether a confirmation still put the address on the list [R122]', async () => {
		const email = `leaving-${Date.now()}@example.com`
		const mail = await leaveMailRenderer(t.db)({ storeId: t.storeId, subjectId: email, toAddress: email })
		const link = unsubscribeLinkOf(mail!, email)
		expect(mail!.text).toContain(`Leave the newsletter: ${link.href}`)
		const list = newsletterRepository(unverifiedScope(t.db, t.storeId))
		await list.subscribe(email)
		expect(await list.confirm(email)).toBe('confirmed')
		expect(await list.confirm(email)).toBe('already')
	})
})
