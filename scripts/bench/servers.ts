/** Starting and watching the servers `npm run bench` measures (the store and the baseline). */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { cookieHeader, freePort } from '../../tests/helpers/http'

export type Server = { base: string; databaseUrl: string; stop: () => Promise<void>; rssMb: () => number }

export const benchAdmin = { email: 'bench-admin@example.com', password: randomBytes(12).toString('hex') }

/** The store's production build on a free port with a fresh SQLite database (and `env` on top). */
export async function startStore(env: Record<string, string> = {}): Promise<Server> {
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const dir = mkdtempSync(join(tmpdir(), 'store-bench-'))
	const databaseUrl = env.DATABASE_URL ?? process.env.DATABASE_URL ?? `file:${join(dir, 'store.db')}`
	const child = spawn(process.execPath, ['tests/e2e/support/start-server.mjs'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			AUTH_URL: base,
			APP_URL: base,
			AUTH_SECRET: randomBytes(32).toString('base64'),
			DATABASE_URL: databaseUrl,
			ADMIN_EMAIL: benchAdmin.email,
			ADMIN_PASSWORD: benchAdmin.password,
			UPLOAD_DIR: join(dir, 'uploads'),
			...env,
		},
	})
	return watch(child, base, databaseUrl, () => rmSync(dir, { recursive: true, force: true }), serverRssMb)
}

/** The bare React Router app of scripts/bench/baseline (built by the caller). */
export async function startBaseline(): Promise<Server> {
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const child = spawn(process.execPath, ['scripts/bench/baseline/server.mjs'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port) },
	})
	return watch(
		child,
		base,
		'',
		() => {},
		(pid) => rssOf(pid),
	)
}

async function watch(child: ChildProcess, base: string, databaseUrl: string, cleanUp: () => void, rss: (pid: number | undefined) => number): Promise<Server> {
	const stop = async () => {
		if (child.exitCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve))
			child.kill('SIGTERM')
			await exited
		}
		cleanUp()
	}
	try {
		await waitForHealth(base, child)
	} catch (error) {
		await stop()
		throw error
	}
	return { base, databaseUrl, stop, rssMb: () => rss(child.pid) }
}

async function waitForHealth(base: string, child: ChildProcess) {
	for (let i = 0; i < 120; i++) {
		// A server that exited (a missing build after --no-build, a refused start) will not answer: say so now.
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`${base}: the server exited (${child.exitCode ?? child.signalCode}) before it answered /healthz; its error is printed above`)
		}
		const ok = await fetch(`${base}/healthz`).then(
			(r) => r.ok,
			() => false,
		)
		if (ok) return
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	throw new Error(`${base} did not become healthy within 60 s`)
}

/** Memory of the node process serving requests (the start script's child). */
function serverRssMb(starter: number | undefined): number {
	try {
		const children = readFileSync(`/proc/${starter}/task/${starter}/children`, 'utf8').trim().split(/\s+/)
		return rssOf(Number(children.at(-1)))
	} catch {
		return Number.NaN
	}
}

function rssOf(pid: number | undefined): number {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8')
		return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
	} catch {
		return Number.NaN
	}
}

/** Samples a server's RSS every 100 ms until stopped; the peak and the last sample. */
export function sampleRss(server: Server) {
	let peak = 0
	let last = 0
	const timer = setInterval(() => {
		last = server.rssMb()
		if (last > peak) peak = last
	}, 100)
	return {
		get peak() {
			return peak
		},
		get last() {
			return last
		},
		stop: () => clearInterval(timer),
	}
}

/**
 * POSTs over node:http on a keep-alive agent of `sockets` connections, answering each status and
 * body. The bench's senders use it rather than fetch: the bench shares the two cores with the
 * server it measures, and fetch (undici's WHATWG layer) cost the bench 1.5–2.4 ms of CPU a
 * request where node:http costs 0.2–0.8 ms (docs/decisions/028); a sender that slow takes CPU
 * from the server and is counted as the server's time.
 */
export function keepAlivePoster(sockets: number) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: sockets })
	const post = (url: string, headers: Record<string, string>, body: string | Buffer) =>
		new Promise<{ status: number; body: string }>((resolve, reject) => {
			const request = http.request(url, { agent, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
				let text = ''
				response.setEncoding('utf8')
				response.on('data', (chunk: string) => (text += chunk))
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
				response.on('error', reject)
			})
			request.on('error', reject)
			request.end(body)
		})
	return { post, close: () => agent.destroy() }
}

export type Row = { route: string; 'req/s': number; 'p50 ms': number; 'p99 ms': number; 'ok %': number }

export async function measure(title: string, options: autocannon.Options): Promise<Row> {
	const result = await autocannon(options)
	return {
		route: title,
		'req/s': Math.round(result.requests.average),
		'p50 ms': result.latency.p50,
		'p99 ms': result.latency.p99,
		'ok %': okPercent(result),
	}
}

/** The share of a run's requests answered 2xx or 3xx, to a tenth of a percent. */
export function okPercent(result: autocannon.Result) {
	const ok = result['2xx'] + result['3xx']
	return Math.round((ok / Math.max(1, ok + result['4xx'] + result['5xx'] + result.errors)) * 1000) / 10
}

/** Posts a form as the browser would and returns the session cookies of its redirect. */
export async function postForm(base: string, path: string, fields: Record<string, string>) {
	const response = await fetch(`${base}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: base },
		body: new URLSearchParams(fields),
	})
	if (response.status !== 302) throw new Error(`${path} answered ${response.status}`)
	return cookieHeader(response.headers)
}
