import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openPrivateTestDatabase, openTestDatabase, signUpCustomer, uniqueEmail } from '../../tests/helpers/databases'
import { cookieHeader } from '../../tests/helpers/http'
import type { APIError } from 'better-auth/api'
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedAdmin } from './seed-admin.server'
import { RESET_TOKEN_PREFIX } from './reset-links.server'

describe.each(PROVIDERS)('seeded Store Admin on %s [R23]', (provider) => {
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
		expect(outcome).toEqual({ kind: 'created', email, publishedPassword: false, retired: [] })
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

	it('creates one admin when two instances run init at the same moment, and neither fails [R126]', async () => {
		const email = uniqueEmail('admin')
		const outcomes = await Promise.all([0, 1].map(() => seedAdmin({ db: t.db, auth: t.auth, email, password: 'first admin password' })))
		expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['created', 'exists'])
		expect(await t.db.user.count({ where: { email } })).toBe(1)
		expect(await signsIn(email, 'first admin password')).toBe(true)
	})

	it('never promotes an existing customer who registered the admin email first', async () => {
		const { email, userId } = await signUpCustomer(t.auth, uniqueEmail('squatter'))
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, email, password: 'admin password 123' })
		expect(outcome.kind).toBe('not-admin')
		const user = await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } })
		expect(user.role).toBe('user')
	})

	it('refuses a weak chosen ADMIN_PASSWORD and creates nothing', async () => {
		const email = uniqueEmail('admin')
		for (const password of ['password123', 'admin123456', 'P@ssw0rd!']) {
			const outcome = await seedAdmin({ db: t.db, auth: t.auth, email, password })
			expect(outcome, password).toMatchObject({ kind: 'weak-password' })
		}
		expect(await t.db.user.count({ where: { email } })).toBe(0)
	})

	it('flags the published password when ADMIN_PASSWORD is missing or is the published one, outside production [R23]', async () => {
		for (const password of [undefined, DEFAULT_ADMIN_PASSWORD]) {
			const outcome = await seedAdmin({ db: t.db, auth: t.auth, email: uniqueEmail('admin'), password })
			expect(outcome).toMatchObject({ kind: 'created', publishedPassword: true })
		}
	})
})

/**
 * The published admin never keeps working once the operator has chosen a password [R23]. Each
 * engine gets a database of its own: these cases create the published default account, and
 * init looks at every admin of the database.
 */
describe.each(PROVIDERS)('the published Store Admin on %s [R23]', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
	}, 60_000)
	afterAll(() => t?.close())
	// Every case starts from a Store without accounts.
	beforeEach(async () => {
		await t.db.user.deleteMany()
	})

	const operator = { email: 'ops@shop.example', password: 'a long operator passphrase 7Qx!' }

	/** A password sign-in: the session's role, or null when the password is refused. */
	async function signIn(email: string, password: string) {
		try {
			const { headers } = await t.auth.api.signInEmail({ body: { email, password }, returnHeaders: true })
			const session = await t.auth.api.getSession({ headers: new Headers({ cookie: cookieHeader(headers) }) })
			return { role: session?.user.role ?? null, cookie: cookieHeader(headers) }
		} catch {
			return null
		}
	}

	const sessionsOf = async (email: string) => t.db.session.count({ where: { user: { email } } })

	/** The container's first start: nothing set, the published default is created. */
	async function firstStart() {
		expect(await seedAdmin({ db: t.db, auth: t.auth, production: true })).toMatchObject({ kind: 'created', publishedPassword: true })
		const published = await signIn(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD)
		expect(published?.role).toBe('admin')
		return published
	}

	/** The status better-auth answers a password sign-in with (200, or its refusal's). */
	async function signInStatus(email: string, password: string) {
		try {
			await t.auth.api.signInEmail({ body: { email, password } })
			return 200
		} catch (error) {
			return (error as APIError).statusCode
		}
	}

	it('takes the admin role, its password, every session and reset link from the published account when a later init names another admin [R23, R29]', async () => {
		await firstStart()
		const retiredId = (await t.db.user.findUniqueOrThrow({ where: { email: DEFAULT_ADMIN_EMAIL }, select: { id: true } })).id
		await t.db.verification.create({
			data: { id: 'reset-before-retirement', identifier: `${RESET_TOKEN_PREFIX}before-retirement`, value: retiredId, expiresAt: new Date(Date.now() + 60_000) },
		})
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, ...operator, production: true })
		expect(outcome).toMatchObject({ kind: 'created', email: operator.email, publishedPassword: false, retired: [DEFAULT_ADMIN_EMAIL] })
		expect(await sessionsOf(DEFAULT_ADMIN_EMAIL)).toBe(0)
		expect(await signInStatus(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD)).toBe(401)
		expect(await t.db.user.findUniqueOrThrow({ where: { id: retiredId }, select: { role: true } })).toEqual({ role: 'user' })
		expect(await t.db.verification.count({ where: { value: retiredId } })).toBe(0)
		expect((await signIn(operator.email, operator.password))?.role).toBe('admin')
		// The next start (the container runs init every time) changes nothing more.
		expect(await seedAdmin({ db: t.db, auth: t.auth, ...operator, production: true })).toMatchObject({ kind: 'exists', retired: [] })
	})

	it('gives the published account the operator’s password when only ADMIN_PASSWORD is set, and signs it out [R23]', async () => {
		await firstStart()
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, password: operator.password, production: true })
		expect(outcome).toMatchObject({ kind: 'password-replaced', email: DEFAULT_ADMIN_EMAIL, publishedPassword: false, retired: [] })
		expect(await sessionsOf(DEFAULT_ADMIN_EMAIL)).toBe(0)
		expect(await signIn(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD)).toBeNull()
		expect((await signIn(DEFAULT_ADMIN_EMAIL, operator.password))?.role).toBe('admin')
		expect(await seedAdmin({ db: t.db, auth: t.auth, password: operator.password, production: true })).toMatchObject({ kind: 'exists' })
	})

	it('leaves the default account alone once its password was changed at /account/password [R23]', async () => {
		const published = await firstStart()
		const changed = 'the operator changed it 9Kd#'
		await t.auth.api.changePassword({
			body: { currentPassword: DEFAULT_ADMIN_PASSWORD, newPassword: changed, revokeOtherSessions: true },
			headers: new Headers({ cookie: published?.cookie ?? '' }),
		})
		const stillSignedIn = await signIn(DEFAULT_ADMIN_EMAIL, changed)
		expect(stillSignedIn?.role).toBe('admin')
		for (const env of [{ password: operator.password }, operator]) {
			const outcome = await seedAdmin({ db: t.db, auth: t.auth, ...env, production: true })
			expect(outcome).toMatchObject({ publishedPassword: false, retired: [] })
			expect(outcome.kind).not.toBe('password-replaced')
		}
		expect((await signIn(DEFAULT_ADMIN_EMAIL, changed))?.role).toBe('admin')
		expect(await sessionsOf(DEFAULT_ADMIN_EMAIL)).toBeGreaterThan(0)
	})

	it('also retires an earlier ADMIN_EMAIL admin created with the published password, and gives the named one the chosen password [R23]', async () => {
		const earlier = 'first-ops@shop.example'
		expect(await seedAdmin({ db: t.db, auth: t.auth, email: earlier })).toMatchObject({ kind: 'created', publishedPassword: true })
		await firstStart()
		const outcome = await seedAdmin({ db: t.db, auth: t.auth, email: earlier, password: operator.password })
		expect(outcome).toMatchObject({ kind: 'password-replaced', email: earlier, retired: [DEFAULT_ADMIN_EMAIL] })
		expect(await signIn(earlier, DEFAULT_ADMIN_PASSWORD)).toBeNull()
		expect((await signIn(earlier, operator.password))?.role).toBe('admin')
		expect(await signInStatus(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD)).toBe(401)
	})

	it('refuses the published password in production whatever the email, changing nothing [R23]', async () => {
		for (const env of [{ email: operator.email }, { email: operator.email, password: DEFAULT_ADMIN_PASSWORD }, { password: DEFAULT_ADMIN_PASSWORD }]) {
			expect(await seedAdmin({ db: t.db, auth: t.auth, ...env, production: true }), JSON.stringify(env)).toMatchObject({
				kind: 'published-password-refused',
			})
		}
		expect(await t.db.user.count()).toBe(0)
	})

	it('keeps the published account an admin when a weak ADMIN_PASSWORD is refused, so the operator can fix it [R23]', async () => {
		await firstStart()
		expect(await seedAdmin({ db: t.db, auth: t.auth, password: 'password123', production: true })).toMatchObject({ kind: 'weak-password' })
		expect((await signIn(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD))?.role).toBe('admin')
	})
})
