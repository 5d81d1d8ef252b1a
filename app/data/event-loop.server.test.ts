import { type ChildProcess, spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NoAnswer, answersWithin, loopBusyMs, withinFreeTime } from './event-loop.server'

/** Keeps the loop busy, as a CPU-bound request burst does: nothing else runs meanwhile. */
function busyFor(ms: number) {
	const until = performance.now() + ms
	while (performance.now() < until) {
		// spinning on purpose
	}
}

/** A plain timer deadline, what the store used before: the timer fires before the socket is read. */
const plainDeadline = (promise: Promise<unknown>, ms: number) =>
	Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))])

describe('a deadline that excludes the event loop’s own delay', () => {
	// The dependency lives in another process, as Redis and PostgreSQL do: it answers while this loop is busy.
	let echo: ChildProcess
	let port = 0
	let socket: Socket
	beforeAll(async () => {
		echo = spawn(
			process.execPath,
			['-e', "const s=require('net').createServer(c=>c.on('data',d=>c.write(d))).listen(0,'127.0.0.1',()=>console.log(s.address().port))"],
			{
				stdio: ['ignore', 'pipe', 'inherit'],
			},
		)
		port = await new Promise<number>((resolve) => echo.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))))
		socket = connect(port, '127.0.0.1')
		await new Promise((resolve) => socket.once('connect', resolve))
	})
	afterAll(() => {
		socket?.destroy()
		echo?.kill('SIGKILL')
	})

	const ping = () => {
		const answer = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))))
		socket.write('PING')
		return answer
	}

	it('counts an answer that arrived while the loop was busy as an answer, where a plain timer does not [R123]', async () => {
		const judged = withinFreeTime(ping(), 100)
		busyFor(400)
		await expect(judged).resolves.toBe('PING')

		// The same situation under the old deadline: the healthy dependency is blamed.
		const naive = plainDeadline(ping(), 100)
		busyFor(400)
		expect(await naive).toBe(false)
		// Let the late answer be read before the next test sends.
		await new Promise((resolve) => setTimeout(resolve, 50))
	})

	it('gives up on a dependency that does not answer after the free time, however busy the loop was [R123]', async () => {
		const started = performance.now()
		const busyBefore = loopBusyMs()
		const judged = withinFreeTime(new Promise(() => {}), 200)
		busyFor(300)
		await expect(judged).rejects.toBeInstanceOf(NoAnswer)
		const elapsed = performance.now() - started
		expect(loopBusyMs() - busyBefore).toBeGreaterThanOrEqual(250)
		// The busy 300 ms did not count: the deadline ran on for about its own 200 ms after them.
		expect(elapsed).toBeGreaterThanOrEqual(300 + 150)
		expect(elapsed).toBeLessThan(300 + 200 + 1_000)
	})

	it('passes a rejection through at once, and reports a fulfilment as answered [R123]', async () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
		await expect(withinFreeTime(Promise.reject(refused), 10_000)).rejects.toBe(refused)
		expect(await answersWithin(Promise.reject(refused), 10_000)).toBe(false)
		expect(await answersWithin(ping(), 1_000)).toBe(true)
		expect(await answersWithin(new Promise(() => {}), 50)).toBe(false)
	})
})
