import { getConfig } from '../config/env.server'
import { ALL, getInvalidationBus, type InvalidationBus } from './invalidation.server'

/**
 * docs/decisions/028-performance-budget.md: data read on nearly every page and
 * written rarely (the Store profile, the catalog, a cart's item count) is kept in memory.
 *
 * - A write forgets the entry, after it commits, in this process and, over Redis pub/sub,
 *   in every process sharing REDIS_URL (invalidation.server.ts).
 * - While a Redis subscription is down nothing is cached (a forget could be missed).
 * - Every entry is re-read after `ttlMs` regardless: the bound on staleness when several
 *   processes run without Redis.
 * - An entry is stored the moment its read starts, so a forget that lands while the read is
 *   in flight removes it: a read that began before a write never outlives it.
 */
export type SharedCache<T> = {
	/** `keep`: whether a loaded value may stay (e.g. not a miss an attacker can vary at will). */
	get(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>
	/** After a write has committed. */
	forget(key: string): void
	forgetAll(): void
}

type Entry<T> = { value: Promise<T>; expires: number }

export function sharedCache<T>({
	topic,
	ttlMs,
	max,
	bus: givenBus,
}: {
	topic: string
	ttlMs: number
	max: number
	bus?: () => InvalidationBus
}): SharedCache<T> {
	const entries = new Map<string, Entry<T>>()
	let bus: InvalidationBus | undefined
	let listening = false
	const currentBus = () => {
		bus ??= givenBus?.() ?? getInvalidationBus(getConfig().redisUrl)
		return bus
	}
	// Listens from the first read: a process that only writes (init) only publishes.
	const readingBus = () => {
		const current = currentBus()
		if (!listening) {
			listening = true
			current.subscribe(topic, (key) => (key === ALL ? entries.clear() : entries.delete(key)))
		}
		return current
	}
	return {
		get(key, load, keep) {
			const now = Date.now()
			const hit = entries.get(key)
			if (hit && hit.expires > now) return hit.value
			const value = load()
			if (readingBus().canCache()) {
				if (hit) entries.delete(key)
				else if (entries.size >= max) entries.delete(entries.keys().next().value as string)
				const entry = { value, expires: now + ttlMs }
				entries.set(key, entry)
				const drop = () => entries.get(key) === entry && entries.delete(key)
				value.then((loaded) => keep && !keep(loaded) && drop(), drop)
			}
			return value
		},
		forget(key) {
			currentBus().publish(topic, key)
		},
		forgetAll() {
			currentBus().publish(topic, ALL)
		},
	}
}
