import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startPrivatePostgres, type PrivatePostgres } from '../../tests/helpers/private-postgres'
import { privateRedis, type PrivateRedis } from '../../tests/helpers/redis'
import { createDb, type Db } from '../data/db.server'
import { s3BucketCheck } from '../uploads/storage/s3.server'
import { boundedCheck, databaseCheck, postgresCheck, readinessProbe, redisCheck } from './readiness.server'

/** A promise the test settles by hand: a dependency that answers when told to. */
function hanging() {
	let settle = () => {}
	const promise = new Promise<void>((resolve) => (settle = resolve))
	return { promise, settle }
}

describe('one check', () => {
	it('is down when its dependency does not answer within the timeout, and starts no second attempt while the first hangs [R81]', async () => {
		const stuck = hanging()
		const check = vi.fn(() => stuck.promise)
		const run = boundedCheck(check, 50)
		expect(await run()).toEqual({ result: 'down', reason: 'no answer within 50 ms' })
		expect(await run()).toMatchObject({ result: 'down' })
		expect(check).toHaveBeenCalledTimes(1)
		// Once the hung attempt ends, the next one asks again.
		stuck.settle()
		await stuck.promise
		check.mockImplementation(() => Promise.resolve())
		await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }))
		expect(check).toHaveBeenCalledTimes(2)
	})

	it('aborts what it gave up on, and reports a failure by its code, not its message [R81]', async () => {
		let signal: AbortSignal | undefined
		const aborted = boundedCheck((s) => ((signal = s), new Promise(() => {})), 20)
		await aborted()
		expect(signal?.aborted).toBe(true)
		const refused = Object.assign(new Error('connect ECONNREFUSED postgresql://user:secret@db'), { code: 'ECONNREFUSED' })
		expect(await boundedCheck(() => Promise.reject(refused), 1_000)()).toEqual({ result: 'down', reason: 'ECONNREFUSED' })
	})
})

describe('the readiness answer', () => {
	it('is ready when every check answers and unavailable naming the one that does not [R81]', async () => {
		const up = readinessProbe({ checks: { database: async () => 1, redis: async () => 'PONG' }, log: () => {} })
		expect(await up()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } })
		const redisDown = readinessProbe({ checks: { database: async () => 1, redis: () => Promise.reject(new Error('x')) }, log: () => {} })
		expect(await redisDown()).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'down' } })
	})

	it('asks each dependency once per interval however many ask, and answers the latest verdict at once [R81]', async () => {
		const database = vi.fn(async () => 1)
		const kept = readinessProbe({ checks: { database }, intervalMs: 60_000, log: () => {} })
		await Promise.all([kept(), kept(), kept()])
		await kept()
		expect(database).toHaveBeenCalledTimes(1)
		kept.stop()
		const fresh = readinessProbe({ checks: { database }, intervalMs: 20, log: () => {} })
		await fresh()
		await vi.waitFor(() => expect(database.mock.calls.length).toBeGreaterThanOrEqual(3))
		fresh.stop()
	})

	/** A dependency whose next answers the test scripts: true answers, false fails (refused). */
	function scripted(initial: boolean) {
		const state = { up: initial, calls: 0 }
		const check = () => {
			state.calls++
			return state.up ? Promise.resolve() : Promise.reject(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))
		}
		return { state, check }
	}

	it('logs a change of state once, on one line: down, then back [R81] [R123]', async () => {
		const lines: string[] = []
		const { state, check } = scripted(false)
		const probe = readinessProbe({ checks: { database: check }, intervalMs: 10, retryMs: 5, log: (line) => lines.push(line) })
		expect((await probe()).status).toBe('unavailable')
		await vi.waitFor(() => expect(state.calls).toBeGreaterThan(3))
		state.up = true
		await vi.waitFor(async () => expect((await probe()).status).toBe('ready'))
		const calls = state.calls
		await vi.waitFor(() => expect(state.calls).toBeGreaterThan(calls + 3))
		probe.stop()
		expect(lines).toEqual(['[readyz] database is down (ECONNREFUSED)', '[readyz] database answers again'])
	})

	it('stays ready through single failed checks, turns unavailable after three in a row and ready after two answers, once each way [R123]', async () => {
		const lines: string[] = []
		const { state, check } = scripted(true)
		const seen: string[] = []
		const probe = readinessProbe({ checks: { database: check }, intervalMs: 30, retryMs: 30, log: (line) => lines.push(line) })
		const watch = setInterval(() => void probe().then(({ status }) => seen.at(-1) !== status && seen.push(status)), 3)
		try {
			await probe()
			// One failure, then answers: a blip, never a verdict.
			for (let blip = 0; blip < 3; blip++) {
				const before = state.calls
				state.up = false
				await vi.waitFor(() => expect(state.calls).toBeGreaterThan(before), { interval: 2 })
				state.up = true
				await vi.waitFor(() => expect(state.calls).toBeGreaterThan(before + 2), { interval: 2 })
			}
			expect(seen).toEqual(['ready'])
			// An outage: unavailable once; then back, ready once.
			state.up = false
			await vi.waitFor(async () => expect((await probe()).status).toBe('unavailable'))
			expect(state.calls).toBeGreaterThanOrEqual(3 + 3 * 3)
			state.up = true
			await vi.waitFor(async () => expect((await probe()).status).toBe('ready'))
			await new Promise((resolve) => setTimeout(resolve, 100))
			expect(seen).toEqual(['ready', 'unavailable', 'ready'])
			expect(lines).toHaveLength(2)
			expect(lines[0]).toMatch(/database is down \(ECONNREFUSED, 3 checks in a row\)/)
		} finally {
			clearInterval(watch)
			probe.stop()
		}
	})

	it('does not flip on a dependency that fails every other check [R123]', async () => {
		let calls = 0
		const flaky = () => (++calls % 2 === 0 ? Promise.reject(new Error('x')) : Promise.resolve())
		const lines: string[] = []
		const probe = readinessProbe({ checks: { redis: flaky }, intervalMs: 5, retryMs: 5, log: (line) => lines.push(line) })
		expect((await probe()).status).toBe('ready')
		await vi.waitFor(() => expect(calls).toBeGreaterThan(20))
		expect((await probe()).status).toBe('ready')
		probe.stop()
		expect(lines).toEqual([])
	})
})

describe('against real dependencies', () => {
	let postgres: PrivatePostgres
	let db: Db
	beforeAll(async () => {
		postgres = await startPrivatePostgres()
		db = createDb(postgres.url)
	})
	afterAll(async () => {
		await db?.$disconnect()
		postgres?.close()
	})

	it('sees a PostgreSQL that stops, and sees it back on the same client without a restart [R81]', async () => {
		const run = boundedCheck(
			databaseCheck(() => db),
			1_000,
		)
		expect(await run()).toEqual({ result: 'ok' })
		postgres.stop()
		expect(await run()).toMatchObject({ result: 'down' })
		postgres.start()
		await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 10_000, interval: 200 })
	})

	it('gives up on a PostgreSQL that accepts no connections (SIGSTOP) instead of hanging [R81]', async () => {
		const run = boundedCheck(
			databaseCheck(() => db),
			500,
		)
		expect(await run()).toEqual({ result: 'ok' })
		postgres.pause()
		try {
			expect(await run()).toEqual({ result: 'down', reason: 'no answer within 500 ms' })
		} finally {
			postgres.resume()
		}
		await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 10_000, interval: 200 })
	})

	it('asks PostgreSQL on a connection of its own, not behind the pool’s queue, and sees it stop, hang and come back [R123]', async () => {
		const check = postgresCheck(postgres.url)
		const run = boundedCheck(check, 500)
		try {
			// Every pooled connection busy for a while: the check does not wait behind them.
			const busy = Array.from({ length: 12 }, () => db.$queryRaw`SELECT 1 FROM pg_sleep(1.5)`.then(() => undefined))
			await new Promise((resolve) => setTimeout(resolve, 100))
			const started = performance.now()
			const timed = run().then((result) => ({ ...result, ms: performance.now() - started }))
			const [own, pooled] = await Promise.all([
				timed,
				boundedCheck(
					databaseCheck(() => db),
					500,
				)(),
			])
			expect(own.result).toBe('ok')
			expect(own.ms).toBeLessThan(1_000)
			// The same question through the pool waits its turn, and would have been taken for an outage.
			expect(pooled).toEqual({ result: 'down', reason: 'no answer within 500 ms' })
			await Promise.all(busy)
			postgres.pause()
			try {
				expect(await run()).toEqual({ result: 'down', reason: 'no answer within 500 ms' })
			} finally {
				postgres.resume()
			}
			await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 15_000, interval: 200 })
			postgres.stop()
			expect(await run()).toMatchObject({ result: 'down' })
			postgres.start()
			await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 10_000, interval: 200 })
		} finally {
			check.close()
		}
	})

	describe('Redis', () => {
		let redis: PrivateRedis
		let check: ReturnType<typeof redisCheck>
		beforeAll(async () => {
			redis = await privateRedis()
			check = redisCheck(redis.url)
		})
		afterAll(async () => {
			check?.close()
			await redis?.kill()
		})

		it('finds a healthy Redis up on its very first check, while its connection is still being made [R123]', async () => {
			const fresh = redisCheck(redis.url)
			try {
				// The first check decides readiness at once: a PING sent before the connection is up must wait for it, not fail.
				expect(await boundedCheck(fresh, 500)()).toEqual({ result: 'ok' })
			} finally {
				fresh.close()
			}
		})

		it('is down while Redis is stopped (SIGSTOP) or killed, and ok again when it answers [R81]', async () => {
			const run = boundedCheck(check, 500)
			await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 5_000, interval: 100 })
			redis.pause()
			try {
				expect(await run()).toMatchObject({ result: 'down' })
			} finally {
				redis.resume()
			}
			await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 5_000, interval: 100 })
			await redis.kill()
			expect(await run()).toMatchObject({ result: 'down' })
			await redis.start()
			await vi.waitFor(async () => expect(await run()).toEqual({ result: 'ok' }), { timeout: 10_000, interval: 200 })
		})
	})

	it('sees an S3 bucket that exists, one that does not, and a server that is gone [R81]', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-s3rver-'))
		const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'store-uploads', configs: [] }] })
		const { port } = await server.run()
		const options = { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }
		try {
			expect(await boundedCheck(s3BucketCheck({ bucket: 'store-uploads', ...options }), 1_000)()).toEqual({ result: 'ok' })
			expect(await boundedCheck(s3BucketCheck({ bucket: 'no-such-bucket', ...options }), 1_000)()).toMatchObject({ result: 'down' })
		} finally {
			await server.close()
			rmSync(dir, { recursive: true, force: true })
		}
		expect(await boundedCheck(s3BucketCheck({ bucket: 'store-uploads', ...options }), 1_000)()).toMatchObject({ result: 'down' })
	})
})
