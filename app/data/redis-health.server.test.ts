import { EventEmitter } from 'node:events'
import type IORedis from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type PrivateRedis, privateRedis } from '../../tests/helpers/redis'
import { redisClient } from './invalidation.server'
import { watchRedis } from './redis-health.server'

/** Keeps this process's event loop busy, as a burst of CPU-bound requests does. */
function busyFor(ms: number) {
	const until = performance.now() + ms
	while (performance.now() < until) {
		// spinning on purpose
	}
}

/** A connection whose PINGs the test answers: `answering` false leaves them unanswered. */
function scriptedConnection() {
	const emitter = new EventEmitter()
	const script = { answering: true, pings: 0 }
	const connection = Object.assign(emitter, {
		status: 'ready',
		ping: () => {
			script.pings++
			return script.answering ? Promise.resolve('PONG') : new Promise(() => {})
		},
	})
	return { connection: connection as unknown as IORedis, script }
}

describe('the Redis health probe', () => {
	it('stays up through one lost PING, goes down after three in a row and up after two answers, once each way [R123]', async () => {
		const { connection, script } = scriptedConnection()
		const health = watchRedis(connection, { intervalMs: 40, timeoutMs: 20, retryMs: 10 })
		const changes: string[] = []
		health.onChange((state) => changes.push(state))
		await health.settled
		expect(health.state).toBe('up')
		// A blip: one PING lost, then answers.
		script.answering = false
		const before = script.pings
		await vi.waitFor(() => expect(script.pings).toBeGreaterThan(before), { interval: 2 })
		script.answering = true
		await new Promise((resolve) => setTimeout(resolve, 150))
		expect(changes).toEqual(['up'])
		// An outage: down once, back up once.
		script.answering = false
		await vi.waitFor(() => expect(health.state).toBe('down'))
		script.answering = true
		await vi.waitFor(() => expect(health.state).toBe('up'))
		await new Promise((resolve) => setTimeout(resolve, 150))
		health.stop()
		expect(changes).toEqual(['up', 'down', 'up'])
	})

	it('counts a command a request saw fail as one failure, not a verdict, and asks again soon [R123]', async () => {
		const { connection, script } = scriptedConnection()
		const health = watchRedis(connection, { intervalMs: 60_000, timeoutMs: 20, retryMs: 10 })
		await health.settled
		const pings = script.pings
		health.failed('ECONNRESET')
		expect(health.state).toBe('up')
		await vi.waitFor(() => expect(script.pings).toBeGreaterThan(pings))
		expect(health.state).toBe('up')
		health.stop()
	})

	it('takes a closed connection as down at once: nothing can be sent on it [R123]', async () => {
		const { connection } = scriptedConnection()
		const health = watchRedis(connection, { intervalMs: 60_000, timeoutMs: 20 })
		await health.settled
		connection.emit('close')
		expect(health.state).toBe('down')
		health.stop()
	})

	describe('against a real Redis while this process is starved of CPU', () => {
		let redis: PrivateRedis
		let connection: IORedis
		beforeAll(async () => {
			redis = await privateRedis()
			connection = redisClient(redis.url, { maxRetriesPerRequest: 0 })
			connection.on('error', () => undefined)
			await new Promise((resolve) => connection.once('ready', resolve))
		})
		afterAll(async () => {
			connection?.disconnect()
			await redis?.kill()
		})

		it('never blames Redis for the loop’s own delay: a stall while its answer is on the way leaves it up [R123]', async () => {
			// One failure would be a verdict here: only the PING's own deadline is judged.
			const health = watchRedis(connection, { intervalMs: 30, timeoutMs: 50, failuresToDown: 1 })
			const changes: string[] = []
			health.onChange((state, _previous, reason) => changes.push(`${state}: ${reason}`))
			await health.settled
			expect(health.state).toBe('up')
			// Before each PING, another connection pauses Redis for 5 ms; its own answer comes at once,
			// and its callback stalls the loop (as a CPU-bound request does) while the PING's answer
			// arrives. The next turn of the loop runs the timers before it reads the sockets.
			const other = redisClient(redis.url, { maxRetriesPerRequest: 0 })
			other.on('error', () => undefined)
			await new Promise((resolve) => other.once('ready', resolve))
			const ping = connection.ping.bind(connection)
			let stalls = 0
			connection.ping = (() => {
				void other.call('CLIENT', 'PAUSE', '5', 'ALL').then(() => {
					stalls++
					busyFor(200)
				})
				return ping()
			}) as typeof connection.ping
			try {
				await vi.waitFor(() => expect(stalls).toBeGreaterThanOrEqual(8), { timeout: 10_000 })
			} finally {
				connection.ping = ping
				health.stop()
				other.disconnect()
			}
			expect(changes).toEqual(['up: PING answered'])
		})
	})
})
