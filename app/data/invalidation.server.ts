import type IORedis from 'ioredis'
import type { RedisOptions } from 'ioredis'
import { onFirstUse } from '../config/optional-packages.server'
import { type ProbeOptions, type RedisHealth, watchRedis } from './redis-health.server'
import { log as logger } from '../log/logger.server'

const ioredis = onFirstUse<typeof IORedis>('ioredis')

/** A Redis connection; ioredis is loaded only by a store that has REDIS_URL. */
export function redisClient(url: string, options: RedisOptions): IORedis {
	const Redis = ioredis()
	return new Redis(url, options)
}

/**
 * "Forget this" messages between the store's processes, over Redis pub/sub when REDIS_URL is
 * set. A cache asks `canCache()` before keeping anything: true without Redis (one process,
 * nobody to hear from), and with Redis only while the subscription is live and Redis answers
 * its probe — a message missed or held up during an outage (Redis down or hung) could leave a
 * stale entry, so every cache is emptied when Redis is lost and again when it comes back, and
 * nothing is cached in between. No request ever waits on Redis here.
 */
export type InvalidationBus = {
	publish(topic: string, key: string): void
	subscribe(topic: string, forget: (key: string) => void): void
	canCache(): boolean
	close(): Promise<void>
}

const CHANNEL = 'store:invalidate'

export function localBus(): InvalidationBus {
	const listeners = new Map<string, Array<(key: string) => void>>()
	return {
		publish(topic, key) {
			for (const forget of listeners.get(topic) ?? []) forget(key)
		},
		subscribe(topic, forget) {
			listeners.set(topic, [...(listeners.get(topic) ?? []), forget])
		},
		canCache: () => true,
		close: async () => {},
	}
}

export function redisBus(url: string, log: (message: string) => void = (line) => logger.warn(line), probe?: ProbeOptions): InvalidationBus {
	const local = localBus()
	const retryStrategy = (times: number) => Math.min(times * 200, 2_000)
	// Queued until connected, so a short-lived process (init) still delivers its forgets.
	const publisher = redisClient(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy })
	publisher.on('error', () => undefined)
	const topics = new Set<string>()
	let subscriber: IORedis | undefined
	let health: RedisHealth | undefined
	let subscribed = false
	let wasLive = false
	let everLive = false
	const live = () => subscribed && health?.state === 'up'
	// Whatever was published while this process was not hearing is unknown: start clean, and
	// keep nothing while deaf (a forget from another process could be missed or late).
	const update = () => {
		if (live() === wasLive) return
		wasLive = !wasLive
		for (const topic of topics) local.publish(topic, ALL)
		if (!wasLive) log('[cache] Redis unavailable: caches are bypassed until it is back.')
		else if (everLive) log('[cache] Redis is back: shared cache invalidation restored.')
		everLive ||= wasLive
	}

	// Only a process that reads a cache listens (init and other scripts only publish).
	const listen = () => {
		if (subscriber) return
		const connection = redisClient(url, { maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy })
		subscriber = connection
		connection.on('error', () => undefined)
		// A hung Redis keeps the connection open and delivers nothing: the probe (a PING, which a
		// subscribed connection may send) finds that out as it finds a closed one [R54].
		health = watchRedis(connection, probe)
		health.onChange(update)
		connection.on('ready', () => {
			connection.subscribe(CHANNEL).then(
				() => {
					subscribed = true
					update()
				},
				() => undefined,
			)
		})
		connection.on('close', () => {
			subscribed = false
			update()
		})
		connection.on('message', (_channel: string, message: string) => {
			const [topic, key] = splitMessage(message)
			if (topic) local.publish(topic, key)
		})
	}

	return {
		publish(topic, key) {
			local.publish(topic, key)
			publisher.publish(CHANNEL, `${topic}\u0000${key}`).catch(() => undefined)
		},
		subscribe(topic, forget) {
			topics.add(topic)
			local.subscribe(topic, forget)
			listen()
		},
		canCache: live,
		async close() {
			subscribed = false
			health?.stop()
			health = undefined
			subscriber?.disconnect()
			// QUIT answers after the commands before it: queued forgets are sent first.
			await Promise.race([publisher.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())])
			publisher.disconnect()
		},
	}
}

/** The key that means "every entry of the topic". */
export const ALL = '\u0000all'

function splitMessage(message: string): [string | undefined, string] {
	const at = message.indexOf('\u0000')
	return at > 0 ? [message.slice(0, at), message.slice(at + 1)] : [undefined, '']
}

const globalForBus = globalThis as unknown as { storeInvalidationBus?: InvalidationBus }

/** One bus per process (Express and the app build share it), built from the config on first use. */
export function getInvalidationBus(redisUrl: string | undefined): InvalidationBus {
	globalForBus.storeInvalidationBus ??= redisUrl ? redisBus(redisUrl) : localBus()
	return globalForBus.storeInvalidationBus
}

/** For scripts and shutdown: sends what is queued, then lets the process exit. */
export async function closeInvalidationBus() {
	const bus = globalForBus.storeInvalidationBus
	globalForBus.storeInvalidationBus = undefined
	await bus?.close()
}
