/**
 * What the scale suite stands up: a fresh PostgreSQL database, a private Redis, the S3
 * stand-in, two production store processes sharing all three, and the balancer in front of
 * them. Everything is torn down in reverse by `stop()`.
 */
import { randomBytes } from 'node:crypto'
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
		// Both at once on an empty database, as N containers of the image start: each runs init
		// (migrations, the Store, the admin) before it serves, at the same moment as the other.
		const shared = {
			AUTH_SECRET: randomBytes(32).toString('base64'),
			ADMIN_EMAIL: 'scale-admin@example.com',
			ADMIN_PASSWORD: `pw-${randomBytes(16).toString('hex')}`,
		}
		const started = await Promise.allSettled([0, 1].map(() => startStoreProcess({ databaseUrl: created.url, env: { ...env, ...shared } })))
		for (const instance of started) if (instance.status === 'fulfilled') cleanups.push(() => instance.value.stop())
		const [a, b] = started.map((instance) => {
			if (instance.status === 'rejected') throw instance.reason
			return { ...instance.value, secret: shared.AUTH_SECRET, admin: { email: shared.ADMIN_EMAIL, password: shared.ADMIN_PASSWORD } }
		}) as [StoreProcess, StoreProcess]
		// The suite reads and seeds the database the instances migrated.
		const database = await prepareDatabase(created.url)
		cleanups.push(() => database.db.$disconnect())
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
