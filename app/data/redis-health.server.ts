import type IORedis from 'ioredis'
import { answersWithin } from './event-loop.server'

export type RedisState = 'starting' | 'up' | 'down'

/**
 * Whether one Redis connection answers, found out in the background (docs/security-model.md
 * [R54] [R123], docs/decisions/017-rate-limits.md). Request code reads `state` and never waits
 * on a Redis that is down, refusing or hung: a PING every `intervalMs` (and at once whenever
 * the connection comes back) decides when Redis is usable again, so no user request pays for
 * finding out.
 *
 * Redis is judged, not this process: a PING's deadline counts only time the event loop was
 * free (app/health/event-loop.server.ts), so a busy store does not blame a healthy Redis. Up
 * turns down after `failuresToDown` failures in a row (a failed PING, or a command a request saw
 * fail), probed again every `retryMs` meanwhile, and down turns up after `successesToUp` PINGs in
 * a row answer: one slow answer never flips it, and an outage flips it once each way. A closed
 * connection is down at once: nothing can be sent on it. A command in flight is released
 * (`onLost`) the moment Redis is found gone; a request bounds its own wait by `deadlineMs`.
 */
export type RedisHealth = {
	readonly state: RedisState
	/** How long (in free loop time) a PING, or a request's command, may go unanswered. */
	readonly deadlineMs: number
	/** The first verdict, within about `timeoutMs` of the start: only requests made before it wait. */
	readonly settled: Promise<void>
	/** Calls `release` when Redis is next found unavailable; returns the way to stop listening. */
	onLost(release: () => void): () => void
	/** A request saw a command fail or go unanswered: one failure, and a PING soon after. */
	failed(reason: string): void
	onChange(listener: (state: 'up' | 'down', previous: RedisState, reason: string) => void): void
	stop(): void
}

export type ProbeOptions = { intervalMs?: number; timeoutMs?: number; retryMs?: number; failuresToDown?: number; successesToUp?: number }

export function watchRedis(
	connection: IORedis,
	{ intervalMs = 1_000, timeoutMs = 500, retryMs = 250, failuresToDown = 3, successesToUp = 2 }: ProbeOptions = {},
): RedisHealth {
	let state: RedisState = 'starting'
	let stopped = false
	let failures = 0
	let successes = 0
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
	/** One observation; the state follows only a run of the same answer (the first verdict excepted). */
	let everUp = false
	const observe = (answered: boolean, reason: string) => {
		if (answered) {
			failures = 0
			successes++
			// Never up yet (Redis was still connecting at start): nothing to flap back from.
			if (!everUp || successes >= successesToUp) {
				everUp = true
				set('up', reason)
			}
		} else {
			successes = 0
			failures++
			if (state === 'starting' || failures >= failuresToDown) set('down', failures > 1 ? `${reason}, ${failures} times in a row` : reason)
		}
	}

	// One probe at a time; a caller that comes while one runs shares its verdict.
	let probing: Promise<void> | undefined
	const run = async () => {
		const status = connection.status
		// Still connecting is one failed answer; a connection lost (closed, reconnecting, ended) is down at once.
		if (status === 'wait' || status === 'connecting' || status === 'connect') return observe(false, `not connected (${status})`)
		if (status !== 'ready') {
			failures = failuresToDown
			return set('down', `not connected (${status})`)
		}
		const answered = await answersWithin(connection.ping(), timeoutMs)
		observe(answered, answered ? 'PING answered' : `no answer to PING within ${timeoutMs} ms`)
	}
	const probe = () => {
		if (stopped) return Promise.resolve()
		probing ??= run().finally(() => (probing = undefined))
		return probing
	}
	// While a run of answers is not yet a verdict either way, ask again sooner than the interval.
	const unsure = () => (state === 'down' ? successes > 0 : failures > 0)
	let retry: NodeJS.Timeout | undefined
	const retrySoon = () => {
		if (stopped || retry || !unsure()) return
		retry = setTimeout(() => {
			retry = undefined
			void probe().then(retrySoon)
		}, retryMs)
		retry.unref()
	}

	connection.on('close', () => {
		failures = failuresToDown
		successes = 0
		set('down', 'connection closed')
	})
	connection.on('ready', () => void probe().then(retrySoon))
	const timer = setInterval(() => void probe().then(retrySoon), intervalMs)
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
		deadlineMs: timeoutMs,
		settled,
		onLost(release) {
			if (state === 'down') {
				release()
				return () => undefined
			}
			waiting.add(release)
			return () => waiting.delete(release)
		},
		failed(reason) {
			observe(false, reason)
			retrySoon()
		},
		onChange: (listener) => void listeners.push(listener),
		stop() {
			stopped = true
			clearInterval(timer)
			clearTimeout(retry)
			waiting.clear()
		},
	}
}

/** Until the connection is ready, fails to connect, or `ms` of free loop time pass, whichever is first. */
async function readyWithin(connection: IORedis, ms: number): Promise<void> {
	let done = () => {}
	const ready = new Promise<void>((resolve) => {
		done = () => resolve()
		connection.once('ready', done)
		connection.once('close', done)
	})
	await answersWithin(ready, ms)
	connection.off('ready', done)
	connection.off('close', done)
}
