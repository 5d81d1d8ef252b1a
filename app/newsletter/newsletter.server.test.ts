import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { subscribersOf } from '../../tests/helpers/newsletter'
import { newsletterRepository, readUnsubscribeToken, UNSUBSCRIBE_TOKEN_DAYS, unsubscribeToken } from './newsletter.server'
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
