import * as betterAuthPassword from '@better-auth/utils/password'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/env.server'
import { createAuth } from './auth.server'
import { expectErrorLog } from '../../tests/setup/fail-on-error-log'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer, uniqueEmail } from '../../tests/helpers/databases'

const ORIGIN = 'http://localhost:3000'

function api(t: TestDatabase, path: string, body: unknown, cookie?: string) {
	return t.auth.handler(
		new Request(`${ORIGIN}/api/auth${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
			body: JSON.stringify(body),
		}),
	)
}

describe.each(PROVIDERS)('better-auth on %s [R20]', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	it('registers a Customer with role user, scoped to the runtime Store [R2] (customer account)', async () => {
		const { userId } = await signUpCustomer(t.auth)
		const user = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true, storeId: true } })
		expect(user).toEqual({ role: 'user', storeId: t.storeId })
	})

	it('signs in an account whose hash better-auth made before hashing moved to the worker pool', async () => {
		const { userId, email } = await signUpCustomer(t.auth)
		const before = await betterAuthPassword.hashPassword('an older Passphrase 1')
		await t.db.account.updateMany({ where: { userId, providerId: 'credential' }, data: { password: before } })
		const { response } = await t.auth.api.signInEmail({ body: { email, password: 'an older Passphrase 1' }, returnHeaders: true })
		expect(response.user.id).toBe(userId)
		await expect(t.auth.api.signInEmail({ body: { email, password: 'an older Passphrase 2' } })).rejects.toMatchObject({ statusCode: 401 })
	})

	it('hashes the password with scrypt, never storing it in clear [R20]', async () => {
		const { userId } = await signUpCustomer(t.auth)
		const account = await t.db.account.findFirstOrThrow({
			where: { userId, providerId: 'credential' },
			select: { password: true },
		})
		expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
		expect(account.password).not.toContain('correct horse battery')
	})

	it('rejects a sign-up that tries to give itself the admin role and creates nothing', async () => {
		const email = uniqueEmail('eve')
		const response = await api(t, '/sign-up/email', { name: 'Eve', email, password: 'correct horse battery', role: 'admin' })
		expect(response.status).toBe(400)
		expect(await t.db.user.count({ where: { email } })).toBe(0)
	})

	it('never lets sign-up choose its Store, ban state or verification', async () => {
		const email = uniqueEmail('mallory')
		const response = await api(t, '/sign-up/email', {
			name: 'Mallory',
			email,
			password: 'correct horse battery',
			storeId: 'another-store',
			emailVerified: true,
			banned: false,
		})
		// better-auth refuses some fields outright; whatever it accepts must not land.
		const user = await t.db.user.findUnique({ where: { email }, select: { storeId: true, emailVerified: true } })
		if (response.status === 200) expect(user).toEqual({ storeId: t.storeId, emailVerified: false })
		else {
			expect(response.status).toBe(400)
			expect(user).toBeNull()
		}
	})

	it('rejects a profile update that sets role or storeId, leaving the row as it was', async () => {
		const { userId, cookie } = await signUpCustomer(t.auth)
		for (const body of [{ role: 'admin' }, { storeId: 'another-store' }, { name: 'ok', role: 'admin' }]) {
			const response = await api(t, '/update-user', body, cookie)
			expect(response.status, JSON.stringify(body)).toBe(400)
		}
		const user = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true, storeId: true, name: true } })
		expect(user).toEqual({ role: 'user', storeId: t.storeId, name: 'Test Shopper' })
	})

	it('answers 404 on the admin plugin’s endpoints to anonymous callers and customers [R6]', async () => {
		const { cookie } = await signUpCustomer(t.auth)
		const email = uniqueEmail('sneaky')
		const body = { email, password: 'correct horse battery', name: 'x', role: 'admin' }
		expect((await api(t, '/admin/create-user', body)).status).toBe(404)
		expect((await api(t, '/admin/create-user', body, cookie)).status).toBe(404)
		expect(await t.db.user.count({ where: { email } })).toBe(0)
	})

	it('stamps the session with the runtime Store', async () => {
		const { userId } = await signUpCustomer(t.auth)
		const session = await t.db.session.findFirstOrThrow({ where: { userId }, select: { storeId: true } })
		expect(session.storeId).toBe(t.storeId)
	})

	it('answers a wrong password and an unknown email alike (no account enumeration)', async () => {
		const { email } = await signUpCustomer(t.auth)
		const wrong = await api(t, '/sign-in/email', { email, password: 'not the password' })
		const unknown = await api(t, '/sign-in/email', { email: uniqueEmail('nobody'), password: 'not the password' })
		expect(wrong.status).toBe(401)
		expect(unknown.status).toBe(401)
		expect(await wrong.json()).toEqual(await unknown.json())
	})

	it('offers no social sign-in, whatever credentials the environment holds [R22]', async () => {
		expectErrorLog(/Provider not found/)
		const names = ['GOOGLE', 'GITHUB', 'APPLE', 'FACEBOOK', 'MICROSOFT', 'DISCORD']
		const env = Object.fromEntries(
			names.flatMap((n) => [
				[`${n}_CLIENT_ID`, 'set-but-unused'],
				[`${n}_CLIENT_SECRET`, 'set-but-unused'],
			]),
		)
		Object.assign(process.env, env)
		try {
			// An instance built while the credentials are set still offers none of them.
			const auth = createAuth({ db: t.db, config: parseConfig({ ...env, NODE_ENV: 'test', DATABASE_URL: t.url }) })
			for (const provider of names.map((n) => n.toLowerCase())) {
				const response = await auth.handler(
					new Request(`${ORIGIN}/api/auth/sign-in/social`, {
						method: 'POST',
						headers: { 'content-type': 'application/json', origin: ORIGIN },
						body: JSON.stringify({ provider, callbackURL: '/' }),
					}),
				)
				expect(response.status, provider).toBeGreaterThanOrEqual(400)
				expect(response.status, provider).toBeLessThan(500)
			}
		} finally {
			for (const key of Object.keys(env)) delete process.env[key]
		}
	})

	it('registers no password-reset flow [R21]', async () => {
		expectErrorLog(/Reset password isn't enabled/)
		const { email } = await signUpCustomer(t.auth)
		const response = await api(t, '/request-password-reset', { email, redirectTo: '/reset' })
		expect(response.status).toBeGreaterThanOrEqual(400)
		expect(await t.db.verification.count({ where: { identifier: { startsWith: 'reset-password' } } })).toBe(0)
	})
})
