/**
 * What the scale suite stands up: a fresh PostgreSQL database, a private Redis, the S3
 * stand-in, two production store processes sharing all three, and the balancer in front of
 * them. Everything is torn down in reverse by `stop()`.
 */
import { startStoreProcess, type StoreProcess } from '../e2e/support/store-process'
import { GENEROUS_LIMITS } from '../helpers/generous-limits'
import { freePort } from '../helpers/http'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'
import { privateRedis } from '../helpers/redis'
import { startS3StandIn } from '../helpers/s3-stand-in'
import { prepareDatabase, waitUntil } from '../faults/support'
import { type Balancer, startBalancer } from './balancer'

/** Wrong passwords one client may try for one account before it is refused [R53], on both instances together. */
export const ACCOUNT_BUDGET = 6

export type Fleet = {
	balancer: Balancer
	a: StoreProcess
	b: StoreProcess
	database: Awaited<ReturnType<typeof prepareDatabase>>
	stop(): Promise<void>
}

export async function startFleet(): Promise<Fleet> {
	const cleanups: Array<() => Promise<unknown> | unknown> = []
	const stop = async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	}
	try {
		const created = await createTestDatabase('store_scale')
		cleanups.push(() => dropTestDatabase(created.name))
		const database = await prepareDatabase(created.url)
		cleanups.push(() => database.db.$disconnect())
		const redis = await privateRedis()
		cleanups.push(() => redis.kill())
		const s3 = await startS3StandIn('scale')
		cleanups.push(() => s3.stop())
		// One public address for both, as behind a platform's proxy: the balancer's.
		const publicPort = await freePort()
		const publicOrigin = `http://127.0.0.1:${publicPort}`
		const env = {
			E2E_DEMO: '0',
			APP_URL: publicOrigin,
			AUTH_URL: publicOrigin,
			TRUST_PROXY: '1',
			REDIS_URL: redis.url,
			RATE_LIMITS: 'on',
			...GENEROUS_LIMITS,
			RATE_LIMIT_ACCOUNT: `${ACCOUNT_BUDGET}/600`,
			...s3.env,
		}
		// One after the other: init (migrations, the admin) runs once before the second starts,
		// as a release command runs it once before the instances.
		const a = await startStoreProcess({ databaseUrl: created.url, env })
		cleanups.push(() => a.stop())
		const b = await startStoreProcess({ share: a, env })
		cleanups.push(() => b.stop())
		const balancer = await startBalancer({
			port: publicPort,
			upstreams: [
				{ name: 'a', origin: a.origin },
				{ name: 'b', origin: b.origin },
			],
		})
		cleanups.push(() => balancer.close())
		await waitUntil('both instances ready', async () => balancer.isReady('a') && balancer.isReady('b'), 60_000)
		return { balancer, a, b, database, stop }
	} catch (error) {
		await stop()
		throw error
	}
}
