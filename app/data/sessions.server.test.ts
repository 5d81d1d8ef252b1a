import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import { describeDevice, sessionsRepository } from './sessions.server'
import type { UserViewer } from './viewer'

describe.each(PROVIDERS)('sessions of the signed-in user on %s [R26] (ASVS 7.4)', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	async function userWithSessions(n: number) {
		const { userId, email } = await signUpCustomer(t.auth)
		for (let i = 1; i < n; i++) {
			await t.auth.api.signInEmail({
				body: { email, password: 'correct horse battery' },
				headers: new Headers({ 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 #${i}` }),
			})
		}
		const sessions = await t.db.session.findMany({ where: { userId }, select: { id: true }, orderBy: { createdAt: 'asc' } })
		const viewer: UserViewer = { kind: 'user', storeId: t.storeId, userId, role: 'user', email, name: 'x', sessionId: sessions[0]!.id }
		return { viewer, ids: sessions.map((s) => s.id) }
	}

	it('lists only the user’s own sessions and marks this one [R26]', async () => {
		const mine = await userWithSessions(3)
		await userWithSessions(2)
		const listed = await sessionsRepository(t.db, mine.viewer).list()
		expect(listed.map((s) => s.id).sort()).toEqual([...mine.ids].sort())
		expect(listed.filter((s) => s.current).map((s) => s.id)).toEqual([mine.ids[0]])
	})

	it('refuses to end another user’s session or this one, changing nothing [R26] (another user’s id)', async () => {
		const mine = await userWithSessions(2)
		const theirs = await userWithSessions(2)
		const repo = sessionsRepository(t.db, mine.viewer)
		expect(await repo.revoke(theirs.ids[1]!)).toBe(false)
		expect(await repo.revoke(mine.ids[0]!)).toBe(false)
		expect(await repo.revoke('no-such-session')).toBe(false)
		expect(await t.db.session.count({ where: { id: { in: [...mine.ids, ...theirs.ids] } } })).toBe(4)
	})

	it('ends one other session, then every other one, keeping this one [R26] (sign out everywhere else)', async () => {
		const mine = await userWithSessions(4)
		const theirs = await userWithSessions(1)
		const repo = sessionsRepository(t.db, mine.viewer)
		expect(await repo.revoke(mine.ids[1]!)).toBe(true)
		expect(await t.db.session.count({ where: { userId: mine.viewer.userId } })).toBe(3)
		expect(await repo.revokeOthers()).toBe(2)
		expect(await t.db.session.findMany({ where: { userId: mine.viewer.userId }, select: { id: true } })).toEqual([{ id: mine.ids[0] }])
		expect(await t.db.session.count({ where: { id: theirs.ids[0] } })).toBe(1)
	})
})

describe('device descriptions', () => {
	it('names browser and system without echoing the raw User-Agent', () => {
		expect(describeDevice('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36')).toBe('Chrome on Linux')
		expect(describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1')).toBe('Safari on iOS')
		expect(describeDevice(null)).toBe('Unknown device')
	})
})
