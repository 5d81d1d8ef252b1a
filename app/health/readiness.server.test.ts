import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startPrivatePostgres, type PrivatePostgres } from '../../tests/helpers/private-postgres'
import { privateRedis, type PrivateRedis } from '../../tests/helpers/redis'
import { createDb, type Db } from '../data/db.server'
import { s3BucketCheck } from '../uploads/storage/s3.server'
import { boundedCheck, databaseCheck, readinessProbe, redisCheck } from './readiness.server'

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

	it('asks each dependency once for the requests of one memo period, and again after it [R81]', async () => {
		const database = vi.fn(async () => 1)
		const kept = readinessProbe({ checks: { database }, memoMs: 60_000, log: () => {} })
		await Promise.all([kept(), kept(), kept()])
		await kept()
		expect(database).toHaveBeenCalledTimes(1)
		const fresh = readinessProbe({ checks: { database }, memoMs: 0, log: () => {} })
		await fresh()
		await fresh()
		expect(database).toHaveBeenCalledTimes(3)
	})

	it('logs a change of state once, on one line: down, then back [R81]', async () => {
		const lines: string[] = []
		let up = false
		const probe = readinessProbe({
			checks: { database: () => (up ? Promise.resolve() : Promise.reject(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))) },
			memoMs: 0,
			log: (line) => lines.push(line),
		})
		await probe()
		await probe()
		up = true
		await probe()
		await probe()
		expect(lines).toEqual(['[readyz] database is down (ECONNREFUSED)', '[readyz] database answers again'])
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

	describe('Redis', () => {
		let redis: PrivateRedis
		let check: ReturnType<typeof redisCheck>
		beforeAll(async () => {
			redis = await privateRedis()
			check = redisCheck(redis.url, 500)
		})
		afterAll(async () => {
			check?.close()
			await redis?.kill()
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
