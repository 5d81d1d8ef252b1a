import { createHmac } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/env.server'
import { privateRedis } from '../../../tests/helpers/redis'
import { CLIENT_IP_HEADER } from '../http.server'
import { countSignInAttempt, type SignInAttempt } from './account.server'
import { DEVICE_COOKIE } from './device-cookie.server'
import { createStoreLimiter, type StoreLimiter } from './rate-limit.server'

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const ACCOUNT_RULE = { RATE_LIMIT_ACCOUNT: '10/900', RATE_LIMIT_ACCOUNT_NEW_DEVICES: '30/3600', RATE_LIMIT_DEVICE: '10/900' }

/** A sign-in request from `client`, as Express stamps it (the resolved address), with a browser's `cookie`. */
const from = (client: string, cookie?: string) =>
	new Request('http://store.test/sign-in', { method: 'POST', headers: { [CLIENT_IP_HEADER]: client, ...(cookie ? { cookie } : {}) } })
const someone = () => `admin-${Math.random().toString(36).slice(2)}@example.com`

async function fail(limiter: StoreLimiter, email: string, client: string, times: number) {
	const refused = []
	for (let i = 0; i < times; i++) refused.push((await countSignInAttempt(email, from(client), limiter)).refused?.status ?? null)
	return refused
}

const BACKENDS: Array<[string, () => StoreLimiter]> = [
	['memory', () => createStoreLimiter(parseConfig(ACCOUNT_RULE))],
	// Redis is required here: the account counter fails closed, so a missing Redis fails the test.
	['redis', () => createStoreLimiter(parseConfig({ ...ACCOUNT_RULE, REDIS_URL: SHARED_REDIS }))],
]

describe.each(BACKENDS)('sign-in failures per account and client on the %s backend', (_name, make) => {
	const limiter = make()
	afterAll(() => limiter.close())

	it('never lets one client’s failures refuse another client’s correct password [R53]', async () => {
		const admin = someone()
		expect(await fail(limiter, admin, '203.0.113.1', 10)).toEqual(Array(10).fill(null))
		const refused = await countSignInAttempt(admin, from('203.0.113.1'), limiter)
		expect(refused.refused).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' })
		// The other client signs in at once, and succeeding clears only its own count.
		const other = await countSignInAttempt(admin, from('198.51.100.2'), limiter)
		expect(other.refused).toBeNull()
		if (!other.refused) await other.succeeded()
		expect((await countSignInAttempt(admin, from('203.0.113.1'), limiter)).refused?.status).toBe(429)
	})

	it('refuses with the account window’s own Retry-After and X-RateLimit-Reset [R51, R53]', async () => {
		const admin = someone()
		await fail(limiter, admin, '203.0.113.3', 10)
		const { refused } = await countSignInAttempt(admin, from('203.0.113.3'), limiter)
		const headers = refused?.headers ?? {}
		// 15 minutes, not the Authentication class's 60 s.
		expect(Number(headers['Retry-After'])).toBeGreaterThan(800)
		expect(Number(headers['X-RateLimit-Reset'])).toBeGreaterThan(Date.now() / 1000 + 800)
		expect(headers['X-RateLimit-Limit']).toBe('10')
		expect(refused?.message).toMatch(/wait \d+ seconds/)
	})

	it('counts failures, not attempts: a success clears that client’s count [R53]', async () => {
		const customer = someone()
		expect(await fail(limiter, customer, '192.0.2.4', 9)).toEqual(Array(9).fill(null))
		const right = await countSignInAttempt(customer, from('192.0.2.4'), limiter)
		expect(right.refused).toBeNull()
		if (!right.refused) await right.succeeded()
		expect(await fail(limiter, customer, '192.0.2.4', 10)).toEqual(Array(10).fill(null))
		expect(await fail(limiter, customer, '192.0.2.4', 1)).toEqual([429])
	})

	it('counts one account however its email is spelled [R53]', async () => {
		const email = someone()
		await fail(limiter, ` ${email.toUpperCase()} `, '192.0.2.5', 10)
		expect(await fail(limiter, email, '192.0.2.5', 1)).toEqual([429])
	})
})

/** The `name=value` of a Set-Cookie header, as the browser sends it back. */
const sentBack = (setCookie: string) => setCookie.split(';')[0]!

async function succeed(attempt: SignInAttempt) {
	if (attempt.refused) throw new Error(`refused: ${attempt.refused.message}`)
	return sentBack(await attempt.succeeded())
}

describe.each(BACKENDS)('password guesses per account from every address, and the owner’s browsers, on the %s backend', (_name, make) => {
	const limiter = make()
	afterAll(() => limiter.close())
	const managedOff = parseConfig({})
	const attempt = (email: string, client: string, cookie?: string) => countSignInAttempt(email, from(client, cookie), limiter, managedOff)

	it('caps 100 addresses guessing one account; the owner’s browser that signed in before still gets in, a new one is told to wait [R55]', async () => {
		const admin = someone()
		// Yesterday: the owner signed in from their laptop, which kept the device cookie.
		const laptop = await succeed(await attempt(admin, '192.0.2.10'))
		expect(laptop).toMatch(new RegExp(`^${DEVICE_COOKIE}=v1\\.`))

		// The storm: one wrong password from each of 100 addresses.
		const statuses = []
		for (let i = 1; i <= 100; i++) statuses.push((await attempt(admin, `203.0.113.${i}`)).refused?.status ?? 'checked')
		expect(statuses).toEqual([...Array(30).fill('checked'), ...Array(70).fill(429)])

		// The laptop signs in during the storm, and keeps its own budget after it.
		expect(await succeed(await attempt(admin, '192.0.2.10', laptop))).toMatch(new RegExp(`^${DEVICE_COOKIE}=`))
		expect((await attempt(admin, '198.51.100.77', laptop)).refused).toBeNull()

		// A browser the owner never signed in from is told what is going on, for how long, and how else to get in.
		const { refused } = await attempt(admin, '192.0.2.10')
		expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' })
		expect(Number(refused?.headers['Retry-After'])).toBeGreaterThan(3000)
		expect(Number(refused?.headers['X-RateLimit-Reset'])).toBeGreaterThan(Date.now() / 1000 + 3000)
		expect(refused?.message).toMatch(/wait \d+ minutes, or sign in from a browser you have signed in with before\.$/)
		expect(refused?.message).not.toContain('managed sign-in')
		// Another account is not touched.
		expect((await attempt(someone(), '203.0.113.1')).refused).toBeNull()
	})

	it('points to managed sign-in when the store offers it [R55]', async () => {
		const admin = someone()
		const managed = parseConfig({
			SVC_API_URL: 'https://id.example.com',
			SVC_ADMIN_OAUTH_CLIENT_ID: 'store-admin',
			SVC_ADMIN_OAUTH_CLIENT_SECRET: 'client-secret-for-the-test',
		})
		for (let i = 1; i <= 30; i++) await countSignInAttempt(admin, from(`203.0.113.${i}`), limiter, managed)
		const { refused } = await countSignInAttempt(admin, from('192.0.2.99'), limiter, managed)
		expect(refused?.message).toMatch(/, or use managed sign-in\.$/)
	})

	it('counts failures, not sign-ins: each success from a new browser gives its attempt back [R55]', async () => {
		const customer = someone()
		for (let i = 1; i <= 29; i++) expect((await attempt(customer, `203.0.113.${i}`)).refused).toBeNull()
		for (let i = 0; i < 5; i++) await succeed(await attempt(customer, `198.51.100.${i + 1}`))
		expect((await attempt(customer, '203.0.113.200')).refused).toBeNull()
		expect((await attempt(customer, '203.0.113.201')).refused?.status).toBe(429)
	})

	it('gives a known browser a budget of its own [R55]', async () => {
		const owner = someone()
		const laptop = await succeed(await attempt(owner, '192.0.2.20'))
		const statuses = []
		for (let i = 0; i < 11; i++) statuses.push((await attempt(owner, '192.0.2.20', laptop)).refused?.status ?? 'checked')
		expect(statuses).toEqual([...Array(10).fill('checked'), 429])
		// Its lock is its own: new browsers still have the account's budget.
		expect((await attempt(owner, '192.0.2.21')).refused).toBeNull()
	})

	it('takes no device cookie of another account, of another secret, or forged [R55]', async () => {
		const owner = someone()
		const laptop = await succeed(await attempt(owner, '192.0.2.40'))
		const theirs = await succeed(await attempt(someone(), '192.0.2.41'))
		for (let i = 1; i <= 30; i++) await attempt(owner, `203.0.113.${i}`)
		const [version, nonce, signature] = laptop.split('=')[1]!.split('.')
		const otherSecret = createHmac('sha256', 'another-secret-of-at-least-32-characters').update(`device-cookie:v1:${owner}:${nonce}`).digest('base64url')
		// The account takes no new browser now; only the laptop's own cookie is one it knows.
		expect((await attempt(owner, '192.0.2.42', laptop)).refused).toBeNull()
		for (const cookie of [
			theirs,
			`${DEVICE_COOKIE}=${version}.${nonce}.${otherSecret}`,
			`${DEVICE_COOKIE}=${version}.${nonce}x.${signature}`,
			`${DEVICE_COOKIE}=garbage`,
		]) {
			expect((await attempt(owner, '192.0.2.42', cookie)).refused?.status, cookie).toBe(429)
		}
	})
})

describe('sign-in while Redis is unavailable', () => {
	it('refuses with 503 and Retry-After, never signing in unlimited [R54]', async () => {
		const redis = await privateRedis({ start: false })
		const limiter = createStoreLimiter(parseConfig({ REDIS_URL: redis.url }), () => undefined)
		try {
			const { refused } = await countSignInAttempt(someone(), from('192.0.2.6'), limiter)
			expect(refused).toMatchObject({ status: 503, code: 'TEMPORARILY_UNAVAILABLE', headers: { 'Retry-After': '5' } })
		} finally {
			await limiter.close()
		}
	})
})
