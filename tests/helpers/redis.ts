import { type ChildProcess, spawn } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from './http.ts'

/**
 * A private redis-server on a free port, for tests and benches that stop, hang or kill Redis:
 * the shared one on 6379 is never touched. Signals go to this child's PID only.
 */
export type PrivateRedis = {
	port: number
	url: string
	/** SIGSTOP: the process keeps its sockets open and answers nothing (a hung Redis). */
	pause(): void
	resume(): void
	/** SIGKILL, waiting for the exit. */
	kill(): Promise<void>
	/** (Re)starts the server on the same port and waits until it answers. */
	start(): Promise<void>
}

/** `password`: the server requires it (`requirepass`), and `url` carries it. */
export async function privateRedis({ start = true, password }: { start?: boolean; password?: string } = {}): Promise<PrivateRedis> {
	const port = await freePort()
	let child: ChildProcess | undefined
	const redis: PrivateRedis = {
		port,
		url: password ? `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`,
		pause: () => void child?.kill('SIGSTOP'),
		resume: () => void child?.kill('SIGCONT'),
		async kill() {
			const running = child
			child = undefined
			if (!running || running.exitCode !== null || running.signalCode !== null) return
			const exited = new Promise((resolve) => running.once('exit', resolve))
			running.kill('SIGCONT')
			running.kill('SIGKILL')
			await exited
		},
		async start() {
			if (child) throw new Error(`the private Redis on ${port} is already running`)
			const auth = password ? ['--requirepass', password] : []
			child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], { stdio: 'ignore' })
			const started = child
			started.once('error', () => undefined)
			for (let i = 0; i < 100; i++) {
				if (started.exitCode !== null) break
				if (await answersPing(port)) return
				await new Promise((resolve) => setTimeout(resolve, 50))
			}
			throw new Error(`redis-server did not start on port ${port} (is the redis-server binary installed?)`)
		},
	}
	if (start) await redis.start()
	return redis
}

function answersPing(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1')
		const done = (answer: boolean) => {
			socket.destroy()
			resolve(answer)
		}
		socket.setTimeout(500, () => done(false))
		socket.once('error', () => done(false))
		socket.once('connect', () => socket.write('PING\r\n'))
		// A server with a password answers NOAUTH: it is up all the same.
		socket.once('data', (chunk) => done(/^(\+PONG|-NOAUTH)/.test(chunk.toString())))
	})
}
