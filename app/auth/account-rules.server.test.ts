import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer, uniqueEmail } from '../../tests/helpers/databases'
import { cookieHeader } from '../../tests/helpers/http'
import { handleAuthRequest, MAX_AUTH_BODY_BYTES } from './auth-endpoint.server'
import { mayCarryCookie } from './account-rules.server'
import { ADMIN_HTTP_PATHS } from './auth.server'
import { seedAdmin } from './seed-admin.server'

const ORIGIN = 'http://localhost:3000'

/** A request to /api/auth/* the way the resource route receives it. */
function call(t: TestDatabase, path: string, init: { body?: BodyInit; cookie?: string; method?: string; type?: string } = {}) {
	const headers: Record<string, string> = { origin: ORIGIN }
	if (init.cookie) headers.cookie = init.cookie
	if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json'
	return handleAuthRequest(
		new Request(`${ORIGIN}/api/auth${path}`, { method: init.method ?? 'POST', headers, body: init.body, duplex: 'half' } as RequestInit),
		t.auth,
	)
}

const json = (value: unknown) => JSON.stringify(value)
const strongPassword = () => `pw-${randomUUID()}`

describe.each(PROVIDERS)('account rules on /api/auth/* on %s', (provider) => {
	let t: TestDatabase

	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	describe('bounded bodies and fields [R43]', () => {
		it('answers 413 to an oversize sign-up body before better-auth reads it, creating nothing', async () => {
			const email = uniqueEmail('huge')
			const response = await call(t, '/sign-up/email', {
				body: json({ name: 'x'.repeat(MAX_AUTH_BODY_BYTES), email, password: strongPassword() }),
			})
			expect(response.status).toBe(413)
			expect(await t.db.user.count({ where: { email } })).toBe(0)
		})

		it('answers 413 to a body that lies about its length or sends none', async () => {
			const email = uniqueEmail('stream')
			const big = json({ name: 'y'.repeat(MAX_AUTH_BODY_BYTES * 4), email, password: strongPassword() })
			const stream = new ReadableStream({
				start(controller) {
					controller.enqueue(new TextEncoder().encode(big))
					controller.close()
				},
			})
			const response = await call(t, '/sign-up/email', { body: stream })
			expect(response.status).toBe(413)
			expect(await t.db.user.count({ where: { email } })).toBe(0)
		})

		it('refuses a sign-up name over 80 characters with 400, like the form (nothing stored)', async () => {
			const email = uniqueEmail('longname')
			const response = await call(t, '/sign-up/email', { body: json({ name: 'n'.repeat(81), email, password: strongPassword() }) })
			expect(response.status).toBe(400)
			expect(await t.db.user.count({ where: { email } })).toBe(0)
		})

		it('refuses an email over 254 characters with 400', async () => {
			const email = `${'e'.repeat(250)}@example.com`
			const response = await call(t, '/sign-up/email', { body: json({ name: 'Long', email, password: strongPassword() }) })
			expect(response.status).toBe(400)
			expect(await t.db.user.count({ where: { email } })).toBe(0)
		})

		it('refuses update-user with an oversize or blank name and leaves the row unchanged', async () => {
			const { userId, cookie } = await signUpCustomer(t.auth)
			for (const name of ['n'.repeat(81), '   ', 'x'.repeat(20_000)]) {
				const response = await call(t, '/update-user', { body: json({ name }), cookie })
				expect([400, 413], JSON.stringify(name.slice(0, 10))).toContain(response.status)
			}
			const row = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } })
			expect(row.name).toBe('Test Shopper')
		})

		it('trims the name on the API path as the form does', async () => {
			const email = uniqueEmail('trim')
			const response = await call(t, '/sign-up/email', { body: json({ name: '  Ada  ', email, password: strongPassword() }) })
			expect(response.status).toBe(200)
			const row = await t.db.user.findUniqueOrThrow({ where: { email }, select: { name: true } })
			expect(row.name).toBe('Ada')
		})
	})

	describe('common passwords (ASVS 6.2.4)', () => {
		it.each(['password123', 'iloveyou2024', 'P@$$w0rd!', 'qwertyuiop'])('refuses %j at sign-up with a reason', async (password) => {
			const email = uniqueEmail('weak')
			const response = await call(t, '/sign-up/email', { body: json({ name: 'Weak', email, password }) })
			expect(response.status).toBe(400)
			const body = (await response.json()) as { code: string; message: string }
			expect(body.code).toBe('PASSWORD_TOO_WEAK')
			expect(body.message.length).toBeGreaterThan(10)
			expect(await t.db.user.count({ where: { email } })).toBe(0)
		})

		it('refuses a password built from the email address', async () => {
			const email = uniqueEmail('gertrude.winterbottom')
			const local = email.split('@')[0] ?? ''
			const response = await call(t, '/sign-up/email', { body: json({ name: 'G', email, password: local }) })
			expect(response.status).toBe(400)
		})

		it('refuses a weak new password on change-password and keeps the old one', async () => {
			const { email, cookie } = await signUpCustomer(t.auth)
			const response = await call(t, '/change-password', {
				body: json({ currentPassword: 'correct horse battery', newPassword: 'password1' }),
				cookie,
			})
			expect(response.status).toBe(400)
			const signIn = await call(t, '/sign-in/email', { body: json({ email, password: 'correct horse battery' }) })
			expect(signIn.status).toBe(200)
		})
	})

	describe('a ban ends access everywhere', () => {
		async function bannedCustomer(how: 'database' | 'adapter') {
			const customer = await signUpCustomer(t.auth)
			// A second browser of the same user.
			const second = await t.auth.api.signInEmail({
				body: { email: customer.email, password: 'correct horse battery' },
				returnHeaders: true,
			})
			if (how === 'database') {
				await t.db.user.update({ where: { id: customer.userId }, data: { banned: true, banReason: 'test' } })
			} else {
				const ctx = await t.auth.$context
				await ctx.internalAdapter.updateUser(customer.userId, { banned: true })
			}
			return { ...customer, secondCookie: cookieHeader(second.headers) }
		}

		it('revokes every session when the ban is written through better-auth', async () => {
			const { userId } = await bannedCustomer('adapter')
			expect(await t.db.session.count({ where: { userId } })).toBe(0)
		})

		it.each(['/update-user', '/list-sessions', '/get-session', '/change-password', '/revoke-other-sessions'])(
			'refuses a banned user’s session on %s, even when the ban was written straight to the database',
			async (path) => {
				const { userId, cookie } = await bannedCustomer('database')
				const isGet = path === '/list-sessions' || path === '/get-session'
				const response = await call(t, path, {
					method: isGet ? 'GET' : 'POST',
					cookie,
					body: isGet ? undefined : json({ name: 'Still here', currentPassword: 'correct horse battery', newPassword: strongPassword() }),
				})
				if (path === '/get-session') {
					expect(response.status).toBe(200)
					expect(await response.json()).toBeNull()
				} else {
					expect(response.status).toBe(401)
				}
				const row = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } })
				expect(row.name).toBe('Test Shopper')
				// Seen once, the ban ends every session of the user, not only this one.
				expect(await t.db.session.count({ where: { userId } })).toBe(0)
			},
		)

		it('lets a ban that has expired pass, as the admin plugin does', async () => {
			const { userId, cookie } = await signUpCustomer(t.auth)
			await t.db.user.update({ where: { id: userId }, data: { banned: true, banExpires: new Date(Date.now() - 1000) } })
			const response = await call(t, '/get-session', { method: 'GET', cookie })
			expect(((await response.json()) as { user: { id: string } }).user.id).toBe(userId)
		})

		it('refuses a banned admin on the admin endpoints too', async () => {
			const email = uniqueEmail('banned-admin')
			await seedAdmin({ db: t.db, auth: t.auth, email, password: 'banned admin password 42' })
			const { headers } = await t.auth.api.signInEmail({ body: { email, password: 'banned admin password 42' }, returnHeaders: true })
			const cookie = cookieHeader(headers)
			await t.db.user.update({ where: { email }, data: { banned: true } })
			const response = await call(t, '/admin/list-users', { method: 'GET', cookie })
			expect(response.status).toBe(404)
			expect((await call(t, '/get-session', { method: 'GET', cookie })).status).toBe(200)
			const user = await t.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } })
			expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0)
		})
	})

	describe('only the admin API the store offers [R6]', () => {
		let adminCookie: string

		beforeAll(async () => {
			const email = uniqueEmail('admin')
			await seedAdmin({ db: t.db, auth: t.auth, email, password: 'surface admin password 42' })
			const { headers } = await t.auth.api.signInEmail({ body: { email, password: 'surface admin password 42' }, returnHeaders: true })
			adminCookie = cookieHeader(headers)
		})

		it('knows the admin plugin’s endpoints it turns off', () => {
			expect(ADMIN_HTTP_PATHS).toEqual(
				expect.arrayContaining([
					'/admin/create-user',
					'/admin/set-role',
					'/admin/impersonate-user',
					'/admin/set-user-password',
					'/admin/remove-user',
					'/admin/ban-user',
				]),
			)
		})

		it('answers 404 to an admin on every admin endpoint, GET and POST, however spelled', async () => {
			const customer = await signUpCustomer(t.auth)
			const before = await t.db.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { role: true, banned: true } })
			for (const path of ADMIN_HTTP_PATHS) {
				for (const spelling of [path, path.toUpperCase(), `${path}/`, path.replace('/admin/', '//admin//')]) {
					for (const method of ['GET', 'POST']) {
						const response = await call(t, spelling, {
							method,
							cookie: adminCookie,
							body:
								method === 'POST'
									? json({
											userId: customer.userId,
											role: 'admin',
											email: uniqueEmail('x'),
											password: strongPassword(),
											name: 'x',
											newPassword: strongPassword(),
										})
									: undefined,
						})
						expect(response.status, `${method} ${spelling}`).toBe(404)
					}
				}
			}
			const after = await t.db.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { role: true, banned: true } })
			expect(after).toEqual(before)
			expect(await t.db.session.count({ where: { userId: customer.userId } })).toBeGreaterThan(0)
		})

		it('still lets the server create the seeded admin through auth.api (control)', async () => {
			const email = uniqueEmail('seeded')
			expect((await seedAdmin({ db: t.db, auth: t.auth, email, password: 'another admin password 42' })).kind).toBe('created')
		})
	})
})

describe('mayCarryCookie: when the ban check may be skipped [R20]', () => {
	const NAME = 'better-auth.session_token'
	const withCookie = (cookie: string) => new Headers({ cookie })

	it('skips only a request whose Cookie header holds the name nowhere', () => {
		expect(mayCarryCookie({}, NAME)).toBe(false)
		expect(mayCarryCookie({ headers: new Headers() }, NAME)).toBe(false)
		expect(mayCarryCookie({ headers: withCookie('guestId=abc; theme=dark') }, NAME)).toBe(false)
	})

	it('checks every way better-call would still read the cookie: among others, spaced, or on the request alone', () => {
		expect(mayCarryCookie({ headers: withCookie(`guestId=abc; ${NAME}=t.s`) }, NAME)).toBe(true)
		expect(mayCarryCookie({ headers: withCookie(`  ${NAME} = t.s ;x=1`) }, NAME)).toBe(true)
		expect(mayCarryCookie({ headers: withCookie(`__Secure-${NAME}=t.s`) }, `__Secure-${NAME}`)).toBe(true)
		const request = new Request('http://localhost/api/auth/update-user', { headers: { cookie: `${NAME}=t.s` } })
		expect(mayCarryCookie({ request }, NAME)).toBe(true)
	})
})
