import { randomBytes } from 'node:crypto'
import type { APIError } from 'better-auth/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, openPrivateTestDatabase, signUpCustomer, uniqueEmail } from '../../tests/helpers/databases'
import { type Auth, createAuth } from './auth.server'
import { parseConfig } from '../config/env.server'
import { createStoreLimiter, type StoreLimiter } from '../security/rate-limit/rate-limit.server'
import { RESET_REQUESTED_ANSWER, RESET_TOKEN_PREFIX } from './reset-links.server'

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const RECOVERY = { NODE_ENV: 'test', PASSWORD_RECOVERY: 'on', EMAIL_SMTP_URL: 'smtp://127.0.0.1:2525', EMAIL_FROM: 'store@example.com' }

const strong = () => `violet-harbour-${randomBytes(6).toString('hex')}-lantern`

/**
 * Password-reset links live only as long as the credential they were sent for [R28]. The links'
 * tokens are read from better-auth's table (the mail carries the same token); every path that
 * writes a password or a ban goes through better-auth here, as it does on the site. A database of
 * its own: other files count reset tokens of the shared one.
 */
describe.each(PROVIDERS)('password-reset links on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let auth: Auth
	let limiter: StoreLimiter

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		const config = parseConfig({ ...RECOVERY, DATABASE_URL: t.url })
		limiter = createStoreLimiter(config)
		auth = createAuth({ db: t.db, config, limiter })
	})
	afterAll(async () => {
		await limiter.close()
		await t.close()
	})

	/** Asks for `n` links for `email`, and answers their tokens, oldest first. */
	async function links(email: string, userId: string, n: number) {
		for (let i = 0; i < n; i++) await auth.api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' } })
		const rows = await t.db.verification.findMany({
			where: { identifier: { startsWith: RESET_TOKEN_PREFIX }, value: userId },
			orderBy: { createdAt: 'asc' },
			select: { identifier: true },
		})
		return rows.map((row) => row.identifier.slice(RESET_TOKEN_PREFIX.length))
	}
	/** A reset with `token`: 200, or better-auth's refusal's status and code. */
	async function reset(token: string, newPassword = strong()) {
		try {
			await auth.api.resetPassword({ body: { token, newPassword } })
			return { status: 200 }
		} catch (error) {
			const { statusCode, body } = error as APIError
			return { status: statusCode, code: body?.code }
		}
	}
	const INVALID = { status: 400, code: 'INVALID_TOKEN' }

	it('ends every other link of the account when one of them resets the password, and no other account’s [R28]', async () => {
		const owner = await signUpCustomer(auth, uniqueEmail('reset'))
		const bystander = await signUpCustomer(auth, uniqueEmail('bystander'))
		const [first, second, newest] = await links(owner.email, owner.userId, 3)
		const [theirs] = await links(bystander.email, bystander.userId, 1)
		expect(newest).toBeDefined()
		expect(await reset(newest!)).toEqual({ status: 200 })
		expect(await reset(first!)).toEqual(INVALID)
		expect(await reset(second!)).toEqual(INVALID)
		expect(await t.db.verification.count({ where: { value: owner.userId } })).toBe(0)
		expect(await reset(theirs!)).toEqual({ status: 200 })
	})

	it('ends every link mailed before a password change at /account/password [R28]', async () => {
		const owner = await signUpCustomer(auth, uniqueEmail('change'))
		const mailed = await links(owner.email, owner.userId, 2)
		await auth.api.changePassword({
			body: { currentPassword: 'correct horse battery', newPassword: strong(), revokeOtherSessions: true },
			headers: new Headers({ cookie: owner.cookie }),
		})
		for (const token of mailed) expect(await reset(token)).toEqual(INVALID)
	})

	it('keeps the links when a password change is refused: nothing changed [R28]', async () => {
		const owner = await signUpCustomer(auth, uniqueEmail('unchanged'))
		const [mailed] = await links(owner.email, owner.userId, 1)
		await expect(
			auth.api.changePassword({
				body: { currentPassword: 'not the password at all', newPassword: strong() },
				headers: new Headers({ cookie: owner.cookie }),
			}),
		).rejects.toMatchObject({ statusCode: 400 })
		expect(await reset(mailed!)).toEqual({ status: 200 })
	})

	it('ends every link of an account when it is banned [R28, R26]', async () => {
		const owner = await signUpCustomer(auth, uniqueEmail('banned'))
		const mailed = await links(owner.email, owner.userId, 2)
		// As the admin plugin bans: through better-auth's adapter.
		await (await auth.$context).internalAdapter.updateUser(owner.userId, { banned: true, banReason: 'abuse' })
		for (const token of mailed) expect(await reset(token)).toEqual(INVALID)
	})

	it('sends at most three links an hour to one address, and answers every request the same, known address or not [R28]', async () => {
		const owner = await signUpCustomer(auth, uniqueEmail('flood'))
		const stranger = uniqueEmail('nobody')
		const answers = []
		for (let i = 0; i < 11; i++) {
			answers.push(await auth.api.requestPasswordReset({ body: { email: owner.email, redirectTo: '/reset-password' } }))
			answers.push(await auth.api.requestPasswordReset({ body: { email: stranger, redirectTo: '/reset-password' } }))
		}
		for (const answer of answers) expect(answer).toEqual(RESET_REQUESTED_ANSWER)
		expect(await t.db.verification.count({ where: { identifier: { startsWith: RESET_TOKEN_PREFIX }, value: owner.userId } })).toBe(3)
		// However the address is spelled.
		await auth.api.requestPasswordReset({ body: { email: ` ${owner.email.toUpperCase()}`, redirectTo: '/reset-password' } })
		expect(await t.db.verification.count({ where: { identifier: { startsWith: RESET_TOKEN_PREFIX }, value: owner.userId } })).toBe(3)
	})
})

describe('the reset-mail budget on the Redis backend', () => {
	it('is shared by every process of the store: three links an hour per address [R28]', async () => {
		const config = parseConfig({ ...RECOVERY, REDIS_URL: SHARED_REDIS })
		// Two processes' limiters over one Redis; Redis is required (the budget fails closed).
		const [a, b] = [createStoreLimiter(config, (line) => expect.fail(line)), createStoreLimiter(config, (line) => expect.fail(line))]
		const t = await openPrivateTestDatabase('sqlite')
		try {
			const [first, second] = [a, b].map((limiter) => createAuth({ db: t.db, config: { ...config, databaseUrl: t.url, databaseProvider: 'sqlite' }, limiter }))
			const owner = await signUpCustomer(first!, uniqueEmail('shared'))
			for (let i = 0; i < 4; i++) {
				for (const auth of [first!, second!]) await auth.api.requestPasswordReset({ body: { email: owner.email, redirectTo: '/reset-password' } })
			}
			expect(await t.db.verification.count({ where: { identifier: { startsWith: RESET_TOKEN_PREFIX }, value: owner.userId } })).toBe(3)
		} finally {
			await Promise.all([a.close(), b.close(), t.close()])
		}
	})
})
