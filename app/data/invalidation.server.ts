import type IORedis from 'ioredis'
import type { RedisOptions } from 'ioredis'
import { onFirstUse } from '../config/optional-packages.server'

const ioredis = onFirstUse<typeof IORedis>('ioredis')

/** A Redis connection; ioredis is loaded only by a store that has REDIS_URL (issue 11). */
export function redisClient(url: string, options: RedisOptions): IORedis {
	const Redis = ioredis()
	return new Redis(url, options)
}

/**
 * Issue 11: "forget this" messages between the store's processes, over Redis pub/sub when
 * REDIS_URL is set. A cache asks `canCache()` before keeping anything: true without Redis
 * (one process, nobody to hear from), and with Redis only while the subscription is live —
 * a message missed during an outage could leave a stale entry, so while the subscription is
 * down nothing is cached, and every cache is emptied when it comes back.
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

export function redisBus(url: string, log: (message: string) => void = console.warn): InvalidationBus {
	const local = localBus()
	const retryStrategy = (times: number) => Math.min(times * 200, 2_000)
	// Queued until connected, so a short-lived process (init) still delivers its forgets.
	const publisher = redisClient(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy })
	publisher.on('error', () => undefined)
	const topics = new Set<string>()
	let subscriber: IORedis | undefined
	let live = false
	let everLive = false

	// Only a process that reads a cache listens (init and other scripts only publish).
	const listen = () => {
		if (subscriber) return
		const connection = redisClient(url, { maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy })
		subscriber = connection
		connection.on('error', () => undefined)
		connection.on('ready', () => {
			connection.subscribe(CHANNEL).then(
				() => {
					// Whatever was published while this process was not listening is unknown: start clean.
					for (const topic of topics) local.publish(topic, ALL)
					live = true
					if (everLive) log('[cache] Redis is back: shared cache invalidation restored.')
					everLive = true
				},
				() => undefined,
			)
		})
		connection.on('close', () => {
			if (live) log('[cache] Redis unavailable: caches are bypassed until it is back.')
			live = false
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
		canCache: () => live,
		async close() {
			live = false
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
