import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { log as logger } from '../app/log/logger.server'
import { loggablePath } from '../app/log/request-log.server'

/**
 * Listens, or rejects with a one-line reason naming the address. Express 5's `app.listen`
 * hands a listen error to its callback, which printed "listening" for a port already in use
 * and let the process exit 0; a supervisor never restarted it.
 */
export function listen(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const failed = (error: NodeJS.ErrnoException) => reject(new Error(listenFailure(error, port, host)))
		server.once('error', failed)
		server.listen(port, host, () => {
			server.off('error', failed)
			const address = server.address()
			resolve(typeof address === 'object' && address ? address.port : port)
		})
	})
}

function listenFailure(error: NodeJS.ErrnoException, port: number, host: string) {
	switch (error.code) {
		case 'EADDRINUSE':
			return `port ${port} on ${host} is already in use (EADDRINUSE): stop the other process or set PORT`
		case 'EACCES':
			return `no permission to listen on port ${port} on ${host} (EACCES): choose a port above 1023 or set PORT`
		case 'EADDRNOTAVAIL':
			return `HOST ${host} is not an address of this machine (EADDRNOTAVAIL)`
		default:
			return `cannot listen on ${host}:${port}: ${error.code ?? error.message}`
	}
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`

/** At most this many cut requests are named in the log line; the count covers the rest. */
const NAMED_CUTS = 5

/** "POST /checkout for 12.3 s, GET /orders/[token] for 10.1 s, and 3 more": what a cut lost. */
function describeCuts(requests: Array<[ServerResponse, number]>, now: number) {
	const named = requests
		.slice(0, NAMED_CUTS)
		.map(([{ req }, since]) => `${req.method ?? 'GET'} ${loggablePath(req.url)} for ${((now - since) / 1_000).toFixed(1)} s`)
		.join(', ')
	return requests.length > NAMED_CUTS ? `${named}, and ${requests.length - NAMED_CUTS} more` : named
}

/**
 * Counts the requests in flight and stops the server honestly on a signal: no new connections,
 * `Connection: close` on whatever still arrives on an open one, idle connections closed, and the
 * requests in flight get `drainMs` to finish. Then `stopped` runs and the process exits: 0 when
 * every request finished, 1 when some had to be cut (the log says how many), so a supervisor and
 * an operator both see that shoppers lost a request. A second signal ends the wait at once.
 */
export function drainOnSignal({
	server,
	drainMs,
	stopped,
	log = (line) => logger.info(line),
	warn = (line) => logger.warn(line),
	exit = (code: number) => process.exit(code),
}: {
	server: Server
	drainMs: number
	stopped: () => Promise<unknown>
	log?: (line: string) => void
	warn?: (line: string) => void
	exit?: (code: number) => void
}) {
	// Each response in flight and when its request arrived (the request, res.req, is named only if it is cut).
	const inFlight = new Map<ServerResponse, number>()
	let draining = false
	let finished = false
	let timer: NodeJS.Timeout | undefined

	const closeAfterwards = (res: ServerResponse) => {
		if (!res.headersSent) res.setHeader('Connection', 'close')
	}
	server.on('request', (req: IncomingMessage, res: ServerResponse) => {
		inFlight.set(res, Date.now())
		if (draining) closeAfterwards(res)
		// Done when its last byte is handed to the socket, or when the client went away first.
		const done = () => {
			if (!inFlight.delete(res)) return
			if (draining && inFlight.size === 0) void finish('after the last one finished')
		}
		res.once('finish', done)
		res.once('close', done)
		// A request queued behind another on its connection (pipelined, as load testers send them)
		// whose connection closes before its turn: Node destroys the request but never attaches,
		// finishes or closes its response, which stayed "in flight" until the drain window ran out
		// (and in this map until the process ended). Its client is gone: nothing is in flight.
		req.once('close', () => {
			if (!req.socket || req.socket.destroyed) done()
		})
	})

	/** `when` says when the cut happened, for the log; null when there was nothing to wait for. */
	async function finish(when: string | null) {
		if (finished) return
		finished = true
		clearTimeout(timer)
		const cut = inFlight.size
		if (cut > 0) {
			// Named, so an operator can tell a stuck upload from a slow page: a cut request writes no request line.
			warn(`[store] ${plural(cut, 'request')} cut: still in flight ${when}: ${describeCuts([...inFlight], Date.now())}`)
			server.closeAllConnections()
		} else if (when !== null) {
			log('[store] every request in flight finished; stopped')
		}
		// Closing connections to Redis and the database must not keep the process from exiting.
		await Promise.race([stopped().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())])
		exit(cut > 0 ? 1 : 0)
	}

	return (signal: string) => {
		if (draining) {
			void finish(`at a second ${signal}`)
			return
		}
		draining = true
		server.close()
		server.closeIdleConnections()
		if (inFlight.size === 0) {
			log(`[store] ${signal}: nothing in flight; stopped`)
			void finish(null)
			return
		}
		log(`[store] ${signal}: no new connections; ${plural(inFlight.size, 'request')} in flight, waiting up to ${drainMs / 1_000} s`)
		for (const res of inFlight.keys()) closeAfterwards(res)
		timer = setTimeout(() => void finish(`when the ${drainMs / 1_000} s drain window ended`), drainMs)
	}
}
