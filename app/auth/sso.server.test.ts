import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../config/env.server'
import { PROVIDERS, openPrivateTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import { handleAuthRequest } from './auth-endpoint.server'
import { createAuth } from './auth.server'
import { applyStoreAdminDecision, grantsStoreAdmin, managedSignIn, SSO_SCOPES, unknownProviderRoute } from './sso.server'
import { carriesSecret, workloadCredentialGuard } from './workload-credential.server'

const ORIGIN = 'http://localhost:3000'
const ID = 'client-id-for-tests'
const SECRET = 'client-secret-for-tests-0123456789'
const WORKLOAD = `wl_${randomBytes(18).toString('base64url')}`

const env = (extra: Record<string, string>) => parseConfig({ NODE_ENV: 'test', ...extra })

describe('managed sign-in configuration [R24]', () => {
	it('is on only when BOTH client values are set; either alone means no provider [R24]', () => {
		const api = { SVC_API_URL: 'https://login.example.com/some/path' }
		expect(managedSignIn(env({ ...api }))).toBeNull()
		expect(managedSignIn(env({ ...api, SVC_ADMIN_OAUTH_CLIENT_ID: ID }))).toBeNull()
		expect(managedSignIn(env({ ...api, SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET }))).toBeNull()
		const on = managedSignIn(env({ ...api, SVC_ADMIN_OAUTH_CLIENT_ID: ID, SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET }))
		// Discovery from the ORIGIN of SVC_API_URL, whatever path it carries.
		expect(on?.discoveryUrl).toBe('https://login.example.com/.well-known/openid-configuration')
		expect(on?.name).toBe('login.example.com')
	})

	it('requests exactly the scopes openid, profile, email and store:admin [R24]', () => {
		expect([...SSO_SCOPES]).toEqual(['openid', 'profile', 'email', 'store:admin'])
	})

	it('grants admin only for the admin role or a GRANTED store:admin scope [R24]', () => {
		expect(grantsStoreAdmin({ roles: ['admin'] }, ['openid'])).toBe(true)
		expect(grantsStoreAdmin({ role: 'admin' }, [])).toBe(true)
		expect(grantsStoreAdmin({ roles: 'editor admin' }, undefined)).toBe(true)
		expect(grantsStoreAdmin({}, ['openid', 'store:admin'])).toBe(true)
		expect(grantsStoreAdmin({ roles: ['administrator', 'store:admin'] }, ['openid', 'profile'])).toBe(false)
		expect(grantsStoreAdmin({ role: 'Admin' }, ['store:admin:read'])).toBe(false)
		expect(grantsStoreAdmin({}, undefined)).toBe(false)
	})

	it('refuses to start when the workload credential equals the OAuth client secret, id or AUTH_SECRET [R24] (no substitution)', () => {
		const base = { SVC_API_URL: 'https://login.example.com', SVC_ADMIN_OAUTH_CLIENT_ID: ID, SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET }
		expect(() => env({ ...base, SVC_WORKLOAD_CREDENTIAL: SECRET })).toThrow(ConfigError)
		expect(() => env({ ...base, SVC_WORKLOAD_CREDENTIAL: ID })).toThrow(ConfigError)
		const authSecret = randomBytes(32).toString('base64')
		expect(() => env({ AUTH_SECRET: authSecret, SVC_WORKLOAD_CREDENTIAL: authSecret })).toThrow(ConfigError)
		expect(() => env({ ...base, AUTH_SECRET: SECRET })).toThrow(ConfigError)
		// The message names the rule, never the value.
		try {
			env({ ...base, SVC_WORKLOAD_CREDENTIAL: SECRET })
		} catch (error) {
			expect((error as Error).message).not.toContain(SECRET)
		}
		expect(() => env({ ...base, SVC_WORKLOAD_CREDENTIAL: WORKLOAD })).not.toThrow()
	})

	it('refuses to start with both client values but no usable SVC_API_URL (discovery)', () => {
		const both = { SVC_ADMIN_OAUTH_CLIENT_ID: ID, SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET }
		expect(() => env(both)).toThrow(/SVC_API_URL/)
		expect(() => env({ ...both, SVC_API_URL: 'http://login.example.com' })).toThrow(/https/)
		expect(() => env({ ...both, SVC_API_URL: 'http://127.0.0.1:9999' })).not.toThrow()
	})

	it('answers 404 for callbacks of providers that are not on [R22, R24]', () => {
		const off = env({})
		const on = env({ SVC_API_URL: 'https://login.example.com', SVC_ADMIN_OAUTH_CLIENT_ID: ID, SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET })
		expect(unknownProviderRoute('/api/auth/callback/store-sso', off)).toBe(true)
		expect(unknownProviderRoute('/api/auth/callback/store-sso', on)).toBe(false)
		expect(unknownProviderRoute('/api/auth/callback/google', on)).toBe(true)
		expect(unknownProviderRoute('/api/auth/oauth2/callback/store-sso', off)).toBe(true)
		expect(unknownProviderRoute('/api/auth/callback', on)).toBe(true)
		expect(unknownProviderRoute('/api/auth/get-session', off)).toBe(false)
	})
})

describe('the workload credential matcher [R24]', () => {
	it('finds the credential as is or URL-encoded, and nothing else', () => {
		const secret = 'wl_abc+def/ghi=='
		expect(carriesSecret([`Bearer ${secret}`], [secret])).toBe(true)
		expect(carriesSecret([`token=${encodeURIComponent(secret)}`], [secret])).toBe(true)
		expect(carriesSecret(['Bearer something-else'], [secret])).toBe(false)
		expect(carriesSecret([`Bearer ${secret}`], [])).toBe(false)
	})

	it('refuses a request carrying it in any header before any route runs', () => {
		const guard = workloadCredentialGuard({ workloadCredential: WORKLOAD, managedSignIn: { clientSecret: undefined } as never })
		const answer = (headers: Record<string, string>, url = '/admin') => {
			let status = 0
			let nextCalled = false
			const res = {
				status(code: number) {
					status = code
					return res
				},
				set: () => res,
				json: () => res,
			}
			guard({ headers, originalUrl: url } as never, res as never, () => (nextCalled = true))
			return nextCalled ? 'next' : status
		}
		expect(answer({ authorization: `Bearer ${WORKLOAD}` })).toBe(401)
		expect(answer({ cookie: `better-auth.session_token=${WORKLOAD}` })).toBe(401)
		expect(answer({ 'x-api-key': WORKLOAD })).toBe(401)
		expect(answer({}, `/admin?token=${WORKLOAD}`)).toBe(401)
		expect(answer({ authorization: 'Bearer other' })).toBe('next')
	})
})

describe.each(PROVIDERS)('operator sign-in inside better-auth on %s', (provider) => {
	// "Writes nothing" is proven by counting every user, session and verification, so these
	// tests get a database of their own: test files running at the same time share the
	// PostgreSQL one and sign in, sign out and expire sessions there.
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
	})
	afterAll(() => t.close())

	const counts = async () => ({
		users: await t.db.user.count(),
		sessions: await t.db.session.count(),
		verifications: await t.db.verification.count(),
	})

	it('with either client value alone, the SSO callback and sign-in answer 404/4xx and write nothing [R24]', async () => {
		for (const extra of [{ SVC_ADMIN_OAUTH_CLIENT_ID: ID }, { SVC_ADMIN_OAUTH_CLIENT_SECRET: SECRET }]) {
			const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: t.url, SVC_API_URL: 'https://login.example.com', ...extra })
			const auth = createAuth({ db: t.db, config })
			expect((await auth.$context).socialProviders).toHaveLength(0)
			const before = await counts()
			const callback = await handleAuthRequest(new Request(`${ORIGIN}/api/auth/callback/store-sso?code=x&state=y`), auth, config)
			expect(callback.status).toBe(404)
			expect(await counts()).toEqual(before)
		}
	})

	it('with all six social providers’ variables set, registers no provider and no callback route [R22]', async () => {
		const names = ['GOOGLE', 'GITHUB', 'APPLE', 'FACEBOOK', 'MICROSOFT', 'DISCORD']
		const social = Object.fromEntries(
			names.flatMap((n) => [
				[`${n}_CLIENT_ID`, 'set'],
				[`${n}_CLIENT_SECRET`, 'set'],
			]),
		)
		const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: t.url, ...social })
		const auth = createAuth({ db: t.db, config })
		expect((await auth.$context).socialProviders).toHaveLength(0)
		for (const name of names) {
			const response = await handleAuthRequest(new Request(`${ORIGIN}/api/auth/callback/${name.toLowerCase()}?code=x&state=y`), auth, config)
			expect(response.status, name).toBe(404)
		}
	})

	it('refuses the workload credential as a password or a sign-up password, creating nothing [R24]', async () => {
		const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: t.url, SVC_WORKLOAD_CREDENTIAL: WORKLOAD })
		const auth = createAuth({ db: t.db, config })
		const { email } = await signUpCustomer(t.auth)
		const before = await counts()
		const post = (path: string, body: unknown) =>
			handleAuthRequest(
				new Request(`${ORIGIN}/api/auth${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', origin: ORIGIN },
					body: JSON.stringify(body),
				}),
				auth,
				config,
			)
		expect((await post('/sign-in/email', { email, password: WORKLOAD })).status).toBe(401)
		expect((await post('/sign-up/email', { name: 'W', email: `w-${Date.now()}@example.com`, password: WORKLOAD })).status).toBe(401)
		// The pages' own calls (auth.api.*) are refused too, inside better-auth.
		await expect(auth.api.signInEmail({ body: { email, password: WORKLOAD } })).rejects.toMatchObject({ statusCode: 401 })
		expect(await counts()).toEqual(before)
	})

	it('removing the admin role ends the user’s other sessions [R26]', async () => {
		const { userId, cookie } = await signUpCustomer(t.auth)
		expect(cookie).toContain('session_token')
		await t.db.user.update({ where: { id: userId }, data: { role: 'admin' } })
		const second = await t.auth.api.signInEmail({
			body: { email: (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).email, password: 'correct horse battery' },
		})
		const keep = await t.db.session.findFirstOrThrow({ where: { token: second.token }, select: { id: true } })
		expect(await t.db.session.count({ where: { userId } })).toBe(2)
		await applyStoreAdminDecision({ db: t.db, userId, admin: false, keepSessionId: keep.id })
		expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).role).toBe('user')
		expect(await t.db.session.findMany({ where: { userId }, select: { id: true } })).toEqual([keep])
		// Granting again ends nothing.
		await applyStoreAdminDecision({ db: t.db, userId, admin: true })
		expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).role).toBe('admin')
		expect(await t.db.session.count({ where: { userId } })).toBe(1)
	})
})
