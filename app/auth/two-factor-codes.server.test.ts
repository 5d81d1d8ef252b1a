import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { CLAIM_TTL_MS, claimOneTimeCode, releaseOneTimeCode } from './two-factor-codes.server'

describe.each(PROVIDERS)('one-time code claims on %s [R25]', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	const claims = (input: { userId: string; code: string; now?: Date }, racers: number) =>
		Promise.all(Array.from({ length: racers }, () => claimOneTimeCode(t.db, { kind: 'totp', ...input })))

	it('lets exactly one of five simultaneous requests claim the same code, and stores only a hash of it [R25]', async () => {
		const userId = randomUUID()
		const won = (await claims({ userId, code: '123456' }, 5)).filter(Boolean)
		expect(won).toHaveLength(1)
		const rows = await t.db.verification.findMany({ where: { value: userId }, select: { id: true, identifier: true } })
		expect(rows).toHaveLength(1)
		expect(JSON.stringify(rows)).not.toContain('123456')
		// The same digits are a different code for another user, and a backup code is never a TOTP code.
		expect(await claimOneTimeCode(t.db, { userId: randomUUID(), kind: 'totp', code: '123456' })).not.toBeNull()
		expect(await claimOneTimeCode(t.db, { userId, kind: 'backup', code: '123456' })).not.toBeNull()
	})

	it('keeps a spent code refused until its claim ends, then lets exactly one racer take it over [R25]', async () => {
		const userId = randomUUID()
		const start = new Date()
		expect(await claimOneTimeCode(t.db, { userId, kind: 'totp', code: '654321', now: start })).not.toBeNull()
		const almost = new Date(start.getTime() + CLAIM_TTL_MS - 1_000)
		expect((await claims({ userId, code: '654321', now: almost }, 3)).filter(Boolean)).toHaveLength(0)
		const later = new Date(start.getTime() + CLAIM_TTL_MS + 1_000)
		expect((await claims({ userId, code: '654321', now: later }, 3)).filter(Boolean)).toHaveLength(1)
	})

	it('gives a released code back to the next request [R25]', async () => {
		const userId = randomUUID()
		const claim = await claimOneTimeCode(t.db, { userId, kind: 'backup', code: 'abcde-12345' })
		if (!claim) throw new Error('expected the first claim to win')
		expect(await claimOneTimeCode(t.db, { userId, kind: 'backup', code: 'abcde-12345' })).toBeNull()
		await releaseOneTimeCode(t.db, claim)
		expect(await claimOneTimeCode(t.db, { userId, kind: 'backup', code: 'abcde-12345' })).not.toBeNull()
	})
})
