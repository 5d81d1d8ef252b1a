/**
 * A small load balancer for the scale suite, doing what a platform's proxy does in front of
 * several store instances: it asks each upstream's `/readyz` every `pollMs`, sends each request
 * round-robin to the upstreams that are ready, and records every change of an upstream's
 * readiness. No sticky sessions: any request may go to any ready instance.
 *
 * Readiness as the platforms the store ships for judge it (fly.toml's check and the Dockerfile's
 * HEALTHCHECK: 3 s to answer, three tries), only asked far more often: an upstream is out after
 * three failed checks in a row (an answer other than 200, or none within `probeTimeoutMs`), at
 * once when its port refuses the connection (nothing listens: the process is gone), and back
 * after two answers of 200.
 *
 * Retries as a proxy makes them (nginx's `proxy_next_upstream error` without
 * `non_idempotent`): a request whose connection was refused never reached the upstream, so it is
 * sent to another ready one whatever its method; a GET or HEAD that failed before its answer
 * began is sent again too. A POST cut after it was sent may have been acted on, so it is not
 * repeated: it is answered 502 (or cut, if its answer had begun) and recorded in `lost`, for
 * the client to repeat as a browser would (a checkout's idempotency key makes that safe).
 */
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Upstream = { name: string; origin: string }
export type Flip = { upstream: string; at: number; ready: boolean; why: string }
export type Lost = { upstream: string; at: number; method: string; path: string; why: string }

export type Balancer = {
	origin: string
	/** Every change of readiness after an upstream's first verdict, in order. */
	flips: Flip[]
	/** Requests an upstream took and did not answer whole (502 or a cut answer). */
	lost: Lost[]
	/** Requests sent again to another upstream (refused connection, or a GET/HEAD that failed). */
	retried: number
	/** Requests answered, per upstream. */
	routed: Map<string, number>
	/** The slowest readiness answer of each upstream (ms). */
	slowestProbe: Map<string, number>
	/** Requests answered 503 because no upstream was ready. */
	noneReady: number
	isReady(name: string): boolean
	close(): Promise<void>
}

type State = Upstream & { ready: boolean | undefined; failures: number; successes: number; url: URL }

const IDEMPOTENT = new Set(['GET', 'HEAD'])
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']

export async function startBalancer({
	upstreams,
	port = 0,
	pollMs = 250,
	probeTimeoutMs = 3_000,
}: {
	upstreams: Upstream[]
	port?: number
	pollMs?: number
	probeTimeoutMs?: number
}): Promise<Balancer> {
	const states: State[] = upstreams.map((upstream) => ({ ...upstream, ready: undefined, failures: 0, successes: 0, url: new URL(upstream.origin) }))
	const flips: Flip[] = []
	const lost: Lost[] = []
	const routed = new Map(upstreams.map(({ name }) => [name, 0]))
	const slowestProbe = new Map(upstreams.map(({ name }) => [name, 0]))
	let retried = 0
	let noneReady = 0
	let next = 0
	let running = true

	const judge = (state: State, ok: boolean, why: string, atOnce = false) => {
		if (ok) {
			state.failures = 0
			state.successes++
		} else {
			state.successes = 0
			state.failures++
		}
		const verdict = state.ready === undefined ? ok : ok ? (state.successes >= 2 ? true : state.ready) : state.failures >= 3 || atOnce ? false : state.ready
		if (state.ready !== undefined && verdict !== state.ready) flips.push({ upstream: state.name, at: Date.now(), ready: verdict, why })
		state.ready = verdict
	}

	const probe = async (state: State) => {
		const since = Date.now()
		try {
			const answer = await fetch(`${state.origin}/readyz`, { signal: AbortSignal.timeout(probeTimeoutMs) })
			await answer.arrayBuffer()
			slowestProbe.set(state.name, Math.max(slowestProbe.get(state.name) ?? 0, Date.now() - since))
			judge(state, answer.status === 200, `readyz ${answer.status}`)
		} catch (error) {
			const code = causeCode(error)
			judge(state, false, code, code === 'ECONNREFUSED')
		}
	}
	const polls = states.map(async (state) => {
		while (running) {
			await probe(state)
			await new Promise((resolve) => setTimeout(resolve, pollMs))
		}
	})
	// The first verdicts before the first request.
	await Promise.all(states.map(probe))

	const pick = (tried: Set<string>) => {
		const ready = states.filter((state) => state.ready && !tried.has(state.name))
		if (ready.length === 0) return undefined
		return ready[next++ % ready.length]
	}

	const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<string>) => {
		const upstream = pick(tried)
		if (!upstream) {
			noneReady++
			res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain', 'x-balancer': 'no upstream ready' }).end('No upstream is ready.')
			return
		}
		tried.add(upstream.name)
		const method = req.method ?? 'GET'
		const headers: IncomingHttpHeaders = { ...req.headers, 'content-length': String(body.byteLength) }
		for (const name of HOP_BY_HOP) delete headers[name]
		const client = req.socket.remoteAddress ?? ''
		headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${client}` : client
		let answered = false
		const outgoing = httpRequest({ host: upstream.url.hostname, port: upstream.url.port, method, path: req.url, headers, agent: false }, (answer) => {
			answered = true
			routed.set(upstream.name, (routed.get(upstream.name) ?? 0) + 1)
			res.writeHead(answer.statusCode ?? 502, answer.headers)
			answer.pipe(res)
			answer.once('close', () => {
				if (answer.complete) return
				lost.push({ upstream: upstream.name, at: Date.now(), method, path: req.url ?? '', why: 'answer cut' })
				res.destroy()
			})
		})
		outgoing.once('error', (error) => {
			if (answered) return
			const code = causeCode(error)
			if (code === 'ECONNREFUSED' || IDEMPOTENT.has(method)) {
				if (code === 'ECONNREFUSED') judge(upstream, false, code, true)
				if (pick(tried)) {
					retried++
					forward(req, res, body, tried)
					return
				}
			}
			lost.push({ upstream: upstream.name, at: Date.now(), method, path: req.url ?? '', why: code })
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-balancer': `upstream ${upstream.name}: ${code}` })
			res.end('The upstream did not answer.')
		})
		outgoing.end(body)
	}

	const server = createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.once('end', () => forward(req, res, Buffer.concat(chunks), new Set()))
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	const { port: bound } = server.address() as AddressInfo

	return {
		origin: `http://127.0.0.1:${bound}`,
		flips,
		lost,
		get retried() {
			return retried
		},
		routed,
		slowestProbe,
		get noneReady() {
			return noneReady
		},
		isReady: (name) => states.find((state) => state.name === name)?.ready === true,
		async close() {
			running = false
			await Promise.all(polls)
			server.closeAllConnections()
			await new Promise((resolve) => server.close(resolve))
		},
	}
}

/** The system error code of a failed request (fetch wraps it in `cause`). */
function causeCode(error: unknown): string {
	const seen = error as { code?: string | number; name?: string; cause?: { code?: string } }
	return seen.cause?.code ?? (typeof seen.code === 'string' ? seen.code : undefined) ?? seen.name ?? 'error'
}
