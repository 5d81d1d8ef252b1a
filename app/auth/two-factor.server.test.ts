import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openPrivateTestDatabase, uniqueEmail } from '../../tests/helpers/databases'
import { secretOf, totpNow, unusedTotp, wrongTotp } from '../../tests/helpers/totp'
import { repositoriesFor } from '../repositories.server'
import { AdminNotEnrolledError } from '../store/store.server'
import type { AdminViewer } from '../data/viewer'
import { handleAuthRequest } from './auth-endpoint.server'
import { ADMIN_TWO_FACTOR_REQUIRED, TWO_FACTOR_ENROLMENT_REQUIRED, passwordSignInVerdict } from './two-factor.server'

const ORIGIN = 'http://localhost:3000'

describe('passwordSignInVerdict: what a correct password alone earns (ASVS 6.3.3)', () => {
	it.each([
		{ role: 'admin', twoFactorEnabled: false, required: true, verdict: 'refused' },
		{ role: 'user,admin', twoFactorEnabled: false, required: true, verdict: 'refused' },
		{ role: 'admin', twoFactorEnabled: true, required: true, verdict: 'second-factor' },
		{ role: 'admin', twoFactorEnabled: true, required: false, verdict: 'second-factor' },
		{ role: 'user', twoFactorEnabled: true, required: true, verdict: 'second-factor' },
		{ role: 'admin', twoFactorEnabled: false, required: false, verdict: 'session' },
		{ role: 'user', twoFactorEnabled: false, required: true, verdict: 'session' },
		{ role: 'administrator', twoFactorEnabled: false, required: true, verdict: 'session' },
		{ role: null, twoFactorEnabled: null, required: true, verdict: 'session' },
	] as const)('$role, enrolled=$twoFactorEnabled, required=$required → $verdict', ({ role, twoFactorEnabled, required, verdict }) => {
		expect(passwordSignInVerdict({ role, twoFactorEnabled, storeRequiresAdminTwoFactor: required })).toBe(verdict)
	})
})

/** The TOTP answer of an enrolment (the store never configures the e-mail/SMS method). */
function totp<T extends { method: string }>(answer: T) {
	if (answer.method !== 'totp') throw new Error(`expected a TOTP enrolment, got ${answer.method}`)
	return answer as Extract<T, { method: 'totp' }>
}

/** Only the cookies that carry a value (better-auth also sends expiring ones). */
function liveCookies(headers: Headers) {
	return headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0] ?? '')
		.filter((pair) => !/=$/.test(pair) && !/max-age=0/i.test(pair))
}

function call(t: TestDatabase, path: string, body: unknown, cookie?: string) {
	const headers: Record<string, string> = { origin: ORIGIN, 'content-type': 'application/json' }
	if (cookie) headers.cookie = cookie
	return handleAuthRequest(new Request(`${ORIGIN}/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }), t.auth)
}

// Each engine gets a database of its own: these tests switch the Store-wide requirement on.
describe.each(PROVIDERS)('two-factor sign-in inside better-auth on %s (ASVS 6.3.3)', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
	}, 60_000)
	afterAll(() => t?.close())

	async function admin(label = 'admin') {
		const email = uniqueEmail(label)
		const password = `pw-${randomUUID()}`
		const { headers, response } = await t.auth.api.signUpEmail({ body: { name: 'Admin', email, password }, returnHeaders: true })
		await t.db.user.update({ where: { id: response.user.id }, data: { role: 'admin' } })
		const cookie = liveCookies(headers).join('; ')
		const viewer: AdminViewer = { kind: 'user', role: 'admin', storeId: t.storeId, userId: response.user.id, email, name: 'Admin' }
		return { email, password, cookie, viewer, userId: response.user.id }
	}

	async function enrol(user: Awaited<ReturnType<typeof admin>>) {
		const headers = new Headers({ cookie: user.cookie })
		const enabled = totp(await t.auth.api.enableTwoFactor({ body: { password: user.password }, headers }))
		const secret = secretOf(enabled.totpURI)
		const confirmed = await t.auth.api.verifyTOTP({ body: { code: await unusedTotp(secret) }, headers, returnHeaders: true })
		return { secret, backupCodes: enabled.backupCodes, cookie: liveCookies(confirmed.headers).join('; ') }
	}

	async function setRequirement(on: boolean) {
		await t.db.store.update({ where: { id: t.storeId }, data: { requireAdminTwoFactor: on } })
	}

	it('counts an enrolment only after a valid code, and stores secret and backup codes encrypted', async () => {
		const user = await admin()
		const headers = new Headers({ cookie: user.cookie })
		const enabled = totp(await t.auth.api.enableTwoFactor({ body: { password: user.password }, headers }))
		const secret = secretOf(enabled.totpURI)
		expect(enabled.backupCodes).toHaveLength(10)
		expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).twoFactorEnabled).toBe(false)
		const row = await t.db.twoFactor.findFirstOrThrow({ where: { userId: user.userId } })
		expect(row.verified).toBe(false)
		expect(row.secret).not.toContain(secret)
		for (const code of enabled.backupCodes) expect(row.backupCodes).not.toContain(code)

		await expect(t.auth.api.verifyTOTP({ body: { code: wrongTotp(secret) }, headers })).rejects.toThrow()
		expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).twoFactorEnabled).toBe(false)
		await t.auth.api.verifyTOTP({ body: { code: await unusedTotp(secret) }, headers })
		expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).twoFactorEnabled).toBe(true)
	})

	it('refuses to switch the requirement on for an admin who has not enrolled, and audits it when enrolled', async () => {
		await setRequirement(false)
		const unenrolled = await admin('unenrolled')
		await expect(repositoriesFor(unenrolled.viewer, t.db).store.updateProfile({ name: 'Store', requireAdminTwoFactor: true })).rejects.toBeInstanceOf(
			AdminNotEnrolledError,
		)
		expect((await repositoriesFor(unenrolled.viewer, t.db).store.settings()).requireAdminTwoFactor).toBe(false)

		const enrolled = await admin('enrolled')
		await enrol(enrolled)
		await repositoriesFor(enrolled.viewer, t.db).store.updateProfile({ name: 'Store', requireAdminTwoFactor: true })
		expect((await repositoriesFor(enrolled.viewer, t.db).store.settings()).requireAdminTwoFactor).toBe(true)
		const entry = await t.db.auditEntry.findFirstOrThrow({ where: { actorId: enrolled.userId, action: 'store.update' } })
		expect(JSON.parse(entry.detail ?? '{}')).toEqual({ name: 'Store', requireAdminTwoFactor: true })
		// Once on, an un-enrolled admin may still save the profile (and may switch it off).
		await repositoriesFor(unenrolled.viewer, t.db).store.updateProfile({ name: 'Store', requireAdminTwoFactor: true })
		await setRequirement(false)
	})

	it('refuses a password sign-in of an un-enrolled admin while the Store requires a second factor, creating no session (ASVS 6.3.3)', async () => {
		const user = await admin('refused')
		await setRequirement(true)
		const before = await t.db.session.count({ where: { userId: user.userId } })
		const response = await call(t, '/sign-in/email', { email: user.email, password: user.password })
		expect(response.status).toBe(403)
		expect((await response.json()).code).toBe(TWO_FACTOR_ENROLMENT_REQUIRED)
		expect(liveCookies(response.headers).filter((c) => c.includes('session_token'))).toEqual([])
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(before)
		// A wrong password still gets better-auth's generic answer, not the enrolment message.
		const wrong = await call(t, '/sign-in/email', { email: user.email, password: 'not-the-password' })
		expect(wrong.status).toBe(401)
		await setRequirement(false)
		expect((await call(t, '/sign-in/email', { email: user.email, password: user.password })).status).toBe(200)
	})

	it('lets a Customer sign in with a password alone while admins are required a second factor', async () => {
		await setRequirement(true)
		const email = uniqueEmail('customer')
		const password = `pw-${randomUUID()}`
		await t.auth.api.signUpEmail({ body: { name: 'Customer', email, password } })
		const response = await call(t, '/sign-in/email', { email, password })
		expect(response.status).toBe(200)
		expect(liveCookies(response.headers).some((c) => c.includes('session_token'))).toBe(true)
		await setRequirement(false)
	})

	it('answers an enrolled admin’s password with a challenge, not a session; a code completes it once and is accepted once (ASVS 6.3.3, 6.5.1)', async () => {
		const user = await admin('challenged')
		const { secret, backupCodes } = await enrol(user)
		await setRequirement(true)
		const sessionsBefore = await t.db.session.count({ where: { userId: user.userId } })
		const response = await call(t, '/sign-in/email', { email: user.email, password: user.password })
		expect(response.status).toBe(200)
		expect(await response.json()).toMatchObject({ twoFactorRedirect: true })
		const cookies = liveCookies(response.headers)
		expect(cookies.some((c) => c.includes('session_token'))).toBe(false)
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(sessionsBefore)
		const challenge = cookies.join('; ')
		expect(challenge).toContain('two_factor')

		// Non-numeric, wrong: no session.
		const wrong = await call(t, '/two-factor/verify-totp', { code: wrongTotp(secret) }, challenge)
		expect(wrong.status).toBe(401)
		const forged = await call(t, '/two-factor/verify-totp', { code: totpNow(secret) }, challenge.replace(/two_factor=[^;]*/, 'two_factor=2fa-forged.sig'))
		expect(forged.status).toBe(401)
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(sessionsBefore)

		const code = await unusedTotp(secret)
		const right = await call(t, '/two-factor/verify-totp', { code }, challenge)
		expect(right.status).toBe(200)
		expect(liveCookies(right.headers).some((c) => c.includes('session_token'))).toBe(true)
		// The challenge is spent: replaying its cookie is refused.
		expect((await call(t, '/two-factor/verify-totp', { code: totpNow(secret) }, challenge)).status).toBe(401)

		// A TOTP code is accepted once (ASVS 6.5.1): the same code at a new challenge fails, another valid one works.
		const again = liveCookies((await call(t, '/sign-in/email', { email: user.email, password: user.password })).headers).join('; ')
		expect((await call(t, '/two-factor/verify-totp', { code }, again)).status).toBe(401)
		expect((await call(t, '/two-factor/verify-totp', { code: await unusedTotp(secret) }, again)).status).toBe(200)

		// A backup code works once only.
		const backup = backupCodes[0] ?? ''
		const second = liveCookies((await call(t, '/sign-in/email', { email: user.email, password: user.password })).headers).join('; ')
		expect((await call(t, '/two-factor/verify-backup-code', { code: backup }, second)).status).toBe(200)
		const third = liveCookies((await call(t, '/sign-in/email', { email: user.email, password: user.password })).headers).join('; ')
		expect((await call(t, '/two-factor/verify-backup-code', { code: backup }, third)).status).toBe(401)
		await setRequirement(false)
	}, 90_000)

	/** A fresh password sign-in of an enrolled user: its two_factor challenge cookie. */
	async function challenge(user: { email: string; password: string }) {
		const response = await call(t, '/sign-in/email', { email: user.email, password: user.password })
		expect(await response.json()).toMatchObject({ twoFactorRedirect: true })
		return liveCookies(response.headers).join('; ')
	}

	it('accepts a TOTP code once even when three sign-ins send it at the same instant; the others get the wrong-code answer and keep their step [R25]', async () => {
		const user = await admin('totp-race')
		const { secret } = await enrol(user)
		const challenges = [await challenge(user), await challenge(user), await challenge(user)]
		const before = await t.db.session.count({ where: { userId: user.userId } })
		const code = await unusedTotp(secret)
		const answers = await Promise.all(challenges.map((cookie) => call(t, '/two-factor/verify-totp', { code }, cookie)))
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401])
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(before + 1)
		const losers = challenges.filter((_, index) => answers[index]?.status === 401)
		for (const answer of answers.filter((a) => a.status === 401)) expect((await answer.json()).code).toBe('INVALID_CODE')
		// A refused racer's challenge is still open: the next code from the app completes it.
		expect((await call(t, '/two-factor/verify-totp', { code: await unusedTotp(secret) }, losers[0])).status).toBe(200)
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(before + 2)
	}, 90_000)

	it('answers the lock after many wrong codes with 429 and the lock’s own Retry-After and X-RateLimit-Reset, once each [R51]', async () => {
		const user = await admin('locked')
		const { secret } = await enrol(user)
		let cookie = await challenge(user)
		let locked: Response | null = null
		for (let attempt = 0; attempt < 30 && !locked; attempt++) {
			const answer = await call(t, '/two-factor/verify-totp', { code: wrongTotp(secret) }, cookie)
			if (answer.status === 429) locked = answer
			else if ((await answer.json()).code !== 'INVALID_CODE') cookie = await challenge(user)
		}
		if (!locked) throw new Error('no lock after 30 wrong codes')
		const row = await t.db.twoFactor.findFirstOrThrow({ where: { userId: user.userId }, select: { lockedUntil: true } })
		const until = row.lockedUntil?.getTime() ?? 0
		expect(until).toBeGreaterThan(Date.now())
		expect(locked.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil((until - Date.now()) / 1000) + 1)
		expect(locked.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(until / 1000)))
	}, 90_000)

	it('accepts a backup code once even when two sign-ins send it at the same instant; the other gets the wrong-code answer and keeps its step [R25]', async () => {
		const user = await admin('backup-race')
		const { backupCodes } = await enrol(user)
		const [first, second] = [await challenge(user), await challenge(user)]
		const before = await t.db.session.count({ where: { userId: user.userId } })
		const code = backupCodes[0] ?? ''
		const answers = await Promise.all([first, second].map((cookie) => call(t, '/two-factor/verify-backup-code', { code }, cookie)))
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(before + 1)
		const loser = answers[0]?.status === 401 ? first : second
		expect((await answers.find((a) => a.status === 401)?.json()).code).toBe('INVALID_BACKUP_CODE')
		// The refused sign-in can still finish with another of its codes; the raced one stays spent.
		expect((await call(t, '/two-factor/verify-backup-code', { code }, loser)).status).toBe(401)
		expect((await call(t, '/two-factor/verify-backup-code', { code: backupCodes[1] }, loser)).status).toBe(200)
		expect(await t.db.session.count({ where: { userId: user.userId } })).toBe(before + 2)
	})

	it('refuses to disable the factor for an admin while the Store requires it', async () => {
		const user = await admin('keeps')
		const { cookie } = await enrol(user)
		await setRequirement(true)
		const refused = await call(t, '/two-factor/disable', { password: user.password }, cookie)
		expect(refused.status).toBe(400)
		expect((await refused.json()).code).toBe(ADMIN_TWO_FACTOR_REQUIRED)
		expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).twoFactorEnabled).toBe(true)
		await setRequirement(false)
		const allowed = await call(t, '/two-factor/disable', { password: user.password }, cookie)
		expect(allowed.status).toBe(200)
		expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).twoFactorEnabled).toBe(false)
	})
})
