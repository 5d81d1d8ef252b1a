import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { drainOnSignal, listen } from './lifecycle'

const servers: Array<{ close(): unknown }> = []
afterEach(() => {
	for (const server of servers.splice(0)) server.close()
})

describe('listening', () => {
	it('rejects with one line naming the port when it is already in use, instead of saying it listens', async () => {
		const taken = createTcpServer()
		servers.push(taken)
		await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
		const { port } = taken.address() as AddressInfo
		const error = await listen(createServer(), port, '127.0.0.1').then(
			() => null,
			(e: Error) => e,
		)
		expect(error?.message).toBe(`port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop the other process or set PORT`)
	})

	it('resolves with the port it listens on', async () => {
		const server = createServer()
		servers.push(server)
		expect(await listen(server, 0, '127.0.0.1')).toBe((server.address() as AddressInfo).port)
	})
})

/**
 * A server whose handler answers once the whole body arrived, and a client that sends the
 * headers and half the body now: a request in flight for as long as the test wants.
 */
async function serverWithSlowUpload(drainMs: number) {
	const server = createServer((req, res) => {
		let size = 0
		req.on('data', (chunk: Buffer) => (size += chunk.length))
		req.on('end', () => res.end(`received ${size}`))
	})
	const events: string[] = []
	let exited: (code: number) => void = () => {}
	const exitCode = new Promise<number>((resolve) => (exited = resolve))
	const onSignal = drainOnSignal({
		server,
		drainMs,
		stopped: async () => events.push('stopped'),
		log: (line) => events.push(line),
		warn: (line) => events.push(line),
		exit: exited,
	})
	const port = await listen(server, 0, '127.0.0.1')
	const socket = connect(port, '127.0.0.1')
	let answer = ''
	socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
	const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
	socket.on('error', () => {})
	socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello')
	// The request is in flight once the server has its headers.
	await new Promise((resolve) => server.once('request', resolve))
	return { server, port, socket, events, exitCode, onSignal, answer: () => answer, closed }
}

const refusesConnections = (server: Server, port: number) =>
	new Promise<boolean>((resolve) => {
		const probe = connect(port, '127.0.0.1')
		probe.on('connect', () => (probe.destroy(), resolve(false)))
		probe.on('error', () => resolve(!server.listening))
	})

describe('stopping on a signal', () => {
	it('refuses new connections, lets a request in flight finish inside the window, and exits 0', async () => {
		const run = await serverWithSlowUpload(30_000)
		run.onSignal('SIGTERM')
		expect(await refusesConnections(run.server, run.port)).toBe(true)
		run.socket.write('world')
		await run.closed
		expect(run.answer()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
		expect(run.answer()).toContain('Connection: close')
		expect(run.answer()).toMatch(/received 10$/)
		expect(await run.exitCode).toBe(0)
		expect(run.events).toEqual([
			'[store] SIGTERM: no new connections; 1 request in flight, waiting up to 30 s',
			'[store] every request in flight finished; stopped',
			'stopped',
		])
	})

	it('cuts a request that cannot finish within the window, says how many were cut and exits 1', async () => {
		const run = await serverWithSlowUpload(100)
		run.onSignal('SIGTERM')
		expect(await run.exitCode).toBe(1)
		await run.closed
		expect(run.answer()).toBe('')
		expect(run.events).toEqual([
			'[store] SIGTERM: no new connections; 1 request in flight, waiting up to 0.1 s',
			expect.stringMatching(/^\[store\] 1 request cut: still in flight when the 0\.1 s drain window ended: POST \/ for 0\.\d s$/),
			'stopped',
		])
	})

	it('does not wait for a pipelined request whose connection closed before its turn', async () => {
		// Node never attaches, finishes or closes the response of a request queued behind another
		// on a connection that closes (a load tester's last request): it must not count as in flight.
		let answerSlow = () => {}
		let bothArrived = () => {}
		const arrived = new Promise<void>((resolve) => (bothArrived = resolve))
		const server = createServer((req, res) => {
			if (req.url === '/slow') answerSlow = () => res.end('slow')
			else {
				res.end('fast')
				bothArrived()
			}
		})
		const events: string[] = []
		let exited: (code: number) => void = () => {}
		const exitCode = new Promise<number>((resolve) => (exited = resolve))
		const onSignal = drainOnSignal({
			server,
			drainMs: 1_000,
			stopped: async () => {},
			log: (line) => events.push(line),
			warn: (line) => events.push(line),
			exit: exited,
		})
		const serverSideClosed = new Promise((resolve) => server.once('connection', (connection: Socket) => connection.once('close', resolve)))
		const port = await listen(server, 0, '127.0.0.1')
		const socket = connect(port, '127.0.0.1')
		socket.on('error', () => {})
		socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n')
		await arrived
		// Reset, not ended: the server's side closes at once (an ended one could still answer both).
		socket.resetAndDestroy()
		await serverSideClosed
		// The first request's handler answers into nothing; the second was never given the connection.
		answerSlow()
		onSignal('SIGTERM')
		expect(await exitCode).toBe(0)
		expect(events).toEqual(['[store] SIGTERM: nothing in flight; stopped'])
	})

	it('stops at once when nothing is in flight', async () => {
		const server = createServer()
		const events: string[] = []
		let exited: (code: number) => void = () => {}
		const exitCode = new Promise<number>((resolve) => (exited = resolve))
		const onSignal = drainOnSignal({ server, drainMs: 30_000, stopped: async () => events.push('stopped'), log: (line) => events.push(line), exit: exited })
		await listen(server, 0, '127.0.0.1')
		onSignal('SIGTERM')
		expect(await exitCode).toBe(0)
		expect(events).toEqual(['[store] SIGTERM: nothing in flight; stopped', 'stopped'])
	})

	it('names the requests it cuts, paths as the request log writes them, five at most with the rest counted', async () => {
		const server = createServer((req) => req.resume())
		const events: string[] = []
		let exited: (code: number) => void = () => {}
		const exitCode = new Promise<number>((resolve) => (exited = resolve))
		const onSignal = drainOnSignal({ server, drainMs: 100, stopped: async () => {}, log: () => {}, warn: (line) => events.push(line), exit: exited })
		const port = await listen(server, 0, '127.0.0.1')
		const send = async (path: string) => {
			const socket = connect(port, '127.0.0.1')
			socket.on('error', () => {})
			socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
			await new Promise((resolve) => server.once('request', resolve))
			return socket
		}
		// One at a time, so the order token's request is the first in flight and certainly named.
		const sockets = [await send('/orders/secret-order-token?x=1')]
		for (let i = 1; i < 7; i++) sockets.push(await send(`/page-${i}`))
		onSignal('SIGTERM')
		expect(await exitCode).toBe(1)
		expect(events).toHaveLength(1)
		const line = events[0]!
		expect(line).toMatch(/^\[store\] 7 requests cut: still in flight when the 0\.1 s drain window ended: /)
		expect(line).toContain('GET /orders/[token] for 0.')
		expect(line).not.toContain('secret-order-token')
		expect(line).toMatch(/, and 2 more$/)
		expect(line.match(/ for \d+\.\d s/g)).toHaveLength(5)
		for (const socket of sockets) socket.destroy()
	})

	it('stops waiting at a second signal', async () => {
		const run = await serverWithSlowUpload(30_000)
		run.onSignal('SIGINT')
		run.onSignal('SIGINT')
		expect(await run.exitCode).toBe(1)
		expect(run.events).toContainEqual(expect.stringMatching(/^\[store\] 1 request cut: still in flight at a second SIGINT: POST \/ for 0\.\d s$/))
	})
})
