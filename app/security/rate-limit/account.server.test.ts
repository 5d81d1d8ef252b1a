import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/env.server'
import { privateRedis } from '../../../tests/helpers/redis'
import { CLIENT_IP_HEADER } from '../http.server'
import { countSignInAttempt } from './account.server'
import { createStoreLimiter, type StoreLimiter } from './rate-limit.server'

const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const ACCOUNT_RULE = { RATE_LIMIT_ACCOUNT: '10/900' }

/** A sign-in request from `client`, as Express stamps it (the resolved address). */
const from = (client: string) => new Request('http://store.test/sign-in', { method: 'POST', headers: { [CLIENT_IP_HEADER]: client } })
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
