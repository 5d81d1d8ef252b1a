import type IORedis from 'ioredis'

export type RedisState = 'starting' | 'up' | 'down'

/**
 * Whether one Redis connection answers, found out in the background (docs/security-model.md
 * [R54], docs/decisions/017-rate-limits.md). Request code reads `state` and never waits on a
 * Redis that is down, refusing or hung: a PING every `intervalMs` (and at once whenever the
 * connection comes back) decides when Redis is usable again, so no user request pays for
 * finding out. A request that sees a command fail reports it (`failed`) and everyone takes
 * the fallback until the next probe answers; a command in flight is released (`onLost`) the
 * moment Redis is found gone.
 */
export type RedisHealth = {
	readonly state: RedisState
	/** The first verdict, within about `timeoutMs` of the start: only requests made before it wait. */
	readonly settled: Promise<void>
	/** Calls `release` when Redis is next found unavailable; returns the way to stop listening. */
	onLost(release: () => void): () => void
	failed(reason: string): void
	onChange(listener: (state: 'up' | 'down', previous: RedisState, reason: string) => void): void
	stop(): void
}

export type ProbeOptions = { intervalMs?: number; timeoutMs?: number }

export function watchRedis(connection: IORedis, { intervalMs = 1_000, timeoutMs = 500 }: ProbeOptions = {}): RedisHealth {
	let state: RedisState = 'starting'
	let stopped = false
	const waiting = new Set<() => void>()
	const listeners: Array<(state: 'up' | 'down', previous: RedisState, reason: string) => void> = []

	const set = (next: 'up' | 'down', reason: string) => {
		if (next === state || stopped) return
		const previous = state
		state = next
		if (next === 'down') {
			for (const release of waiting) release()
			waiting.clear()
		}
		for (const listener of listeners) listener(next, previous, reason)
	}

	// One probe at a time; a caller that comes while one runs shares its verdict.
	let probing: Promise<void> | undefined
	const run = async () => {
		if (connection.status !== 'ready') return set('down', `not connected (${connection.status})`)
		const answered = await within(connection.ping(), timeoutMs)
		set(answered ? 'up' : 'down', answered ? 'PING answered' : `no answer to PING within ${timeoutMs} ms`)
	}
	const probe = () => {
		if (stopped) return Promise.resolve()
		probing ??= run().finally(() => (probing = undefined))
		return probing
	}

	connection.on('close', () => set('down', 'connection closed'))
	connection.on('ready', () => void probe())
	const timer = setInterval(() => void probe(), intervalMs)
	timer.unref()

	const settled = (async () => {
		if (connection.status !== 'ready') await readyWithin(connection, timeoutMs)
		await probe()
		if (state === 'starting') set('down', `no connection within ${timeoutMs} ms`)
	})()

	return {
		get state() {
			return state
		},
		settled,
		onLost(release) {
			if (state === 'down') {
				release()
				return () => undefined
			}
			waiting.add(release)
			return () => waiting.delete(release)
		},
		failed: (reason) => set('down', reason),
		onChange: (listener) => void listeners.push(listener),
		stop() {
			stopped = true
			clearInterval(timer)
			waiting.clear()
		},
	}
}

/** Whether `promise` fulfilled within `ms` (a rejection or the deadline is false). */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(false), ms)
		const settle = (answer: boolean) => () => {
			clearTimeout(timer)
			resolve(answer)
		}
		promise.then(settle(true), settle(false))
	})
}

/** Until the connection is ready, fails to connect, or `ms` pass, whichever is first. */
function readyWithin(connection: IORedis, ms: number): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer)
			connection.off('ready', done)
			connection.off('close', done)
			resolve()
		}
		const timer = setTimeout(done, ms)
		connection.once('ready', done)
		connection.once('close', done)
	})
}
