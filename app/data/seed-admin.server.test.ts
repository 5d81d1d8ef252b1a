import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer, uniqueEmail } from '../../tests/helpers/databases'
import { seedAdmin } from './seed-admin.server'

describe.each(PROVIDERS)('seeded Store Admin on %s (spec 5.7)', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	const signsIn = async (email: string, password: string) => {
		try {
			await t.auth.api.signInEmail({ body: { email, password } })
			return true
		} catch {
			return false
		}
	}

	it('creates an admin of the runtime Store who can sign in', async () => {
		const email = uniqueEmail('admin')
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, email, password: 'first admin password' })
		expect(outcome).toEqual({ kind: 'created', email, usedDefaults: false })
		const user = await t.db.user.findUniqueOrThrow({ where: { email }, select: { role: true, storeId: true } })
		expect(user).toEqual({ role: 'admin', storeId: t.storeId })
		expect(await signsIn(email, 'first admin password')).toBe(true)
	})

	it('is idempotent and never resets the password of an existing admin', async () => {
		const email = uniqueEmail('admin')
		await seedAdmin({ db: t.db, auth: t.auth, email, password: 'first admin password' })
		const again = await seedAdmin({ db: t.db, auth: t.auth, email, password: 'a different password' })
		expect(again.kind).toBe('exists')
		expect(await t.db.user.count({ where: { email } })).toBe(1)
		expect(await signsIn(email, 'first admin password')).toBe(true)
		expect(await signsIn(email, 'a different password')).toBe(false)
	})

	it('never promotes an existing customer who registered the admin email first', async () => {
		const { email, userId } = await signUpCustomer(t.auth, uniqueEmail('squatter'))
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, email, password: 'admin password 123' })
		expect(outcome.kind).toBe('not-admin')
		const user = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } })
		expect(user.role).toBe('user')
	})

	it('refuses a weak chosen ADMIN_PASSWORD and creates nothing (issue 5.8)', async () => {
		const email = uniqueEmail('admin')
		for (const password of ['password123', 'admin123456', 'P@ssw0rd!']) {
			const outcome = await seedAdmin({ db: t.db, auth: t.auth, email, password })
			expect(outcome, password).toMatchObject({ kind: 'weak-password' })
		}
		expect(await t.db.user.count({ where: { email } })).toBe(0)
	})

	it('flags the published defaults when ADMIN_EMAIL or ADMIN_PASSWORD is missing', async () => {
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, email: uniqueEmail('admin') })
		expect(outcome.usedDefaults).toBe(true)
	})
})
