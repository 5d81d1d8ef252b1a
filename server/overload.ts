import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * [R125] Load shedding at the door. Past a measured limit of requests in flight, or while this
 * process's event loop runs later than a limit, a new request is answered at once with 503 and
 * Retry-After, before any work is done for it (no session lookup, no rate-limit count, no
 * render); the requests already admitted finish. Liveness and readiness are never shed, and
 * neither are the static files the pages need (answered from memory).
 *
 * Two priorities (docs/decisions/077-load-shedding.md): pages, API reads and everything else
 * are shed first; a checkout submit, a sign-in or its second factor, and a provider event (a
 * payment) are admitted up to `protectedHeadroom` times the limits, since each ends something a
 * person or a provider is already in the middle of.
 */
export type OverloadLimits = {
	/** Requests in flight past which a page is shed. */
	maxInFlight: number
	/** Event-loop lateness (ms) past which a page is shed. */
	maxLoopDelayMs: number
	/** How much further a protected request is admitted (1.5 = half again). */
	protectedHeadroom: number
	retryAfterSeconds: number
}

export type Priority = 'never' | 'protected' | 'page'

const PROTECTED_WRITES = [
	/^\/checkout\/?$/,
	/^\/sign-in(\/two-factor)?\/?$/,
	/^\/api\/auth\/sign-in\//,
	/^\/api\/auth\/two-factor\//,
	/^\/api\/events\/[^/]+\/?$/,
]

/** Which door a request takes, from its method and path alone (nothing is parsed for it). */
export function priorityOf(method: string | undefined, url: string | undefined): Priority {
	const path = (url ?? '/').split('?', 1)[0]!
	if (path === '/healthz' || path === '/readyz') return 'never'
	if ((method === 'GET' || method === 'HEAD') && (path.startsWith('/assets/') || path === '/favicon.svg' || path === '/favicon.ico')) return 'never'
	if (method === 'POST' && PROTECTED_WRITES.some((pattern) => pattern.test(path))) return 'protected'
	return 'page'
}

const PAGE = Buffer.from(
	'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Busy</title></head><body><h1>The store is busy</h1>' +
		'<p>Too many people are shopping right now. Please try again in a few seconds.</p></body></html>',
)
const JSON_BODY = Buffer.from(JSON.stringify({ code: 'OVERLOADED', message: 'The store is busy. Please try again in a few seconds.' }))

export type Shedder = {
	(req: IncomingMessage, res: ServerResponse, next: () => void): void
	readonly inFlight: number
	readonly shed: number
}

/**
 * The middleware. `loopDelayMs` reads how late the event loop runs now (app/data/event-loop.server.ts).
 * It counts a request from its arrival until its response is finished or its client has gone.
 */
export function shedOverload(limits: OverloadLimits, loopDelayMs: () => number, onShed: (priority: Priority, reason: string) => void = () => {}): Shedder {
	let inFlight = 0
	let shed = 0
	const middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
		const priority = priorityOf(req.method, req.url)
		if (priority !== 'never') {
			const scale = priority === 'protected' ? limits.protectedHeadroom : 1
			const delay = loopDelayMs()
			const reason =
				inFlight >= limits.maxInFlight * scale
					? `${inFlight} requests in flight`
					: // A late loop is overload only with others waiting: after one long task (a first SVG
						// sanitised) the loop is free again, and the request after it is not shed.
						inFlight >= Math.ceil(limits.maxInFlight / 8) && delay > limits.maxLoopDelayMs * scale
						? `event loop ${Math.round(delay)} ms late`
						: undefined
			if (reason) {
				shed++
				onShed(priority, reason)
				const json = (req.url ?? '').startsWith('/api/') || (req.url ?? '').includes('.data')
				const body = json ? JSON_BODY : PAGE
				res.writeHead(503, {
					'Content-Type': json ? 'application/json' : 'text/html; charset=utf-8',
					'Content-Length': body.byteLength,
					'Cache-Control': 'no-store',
					'Retry-After': String(limits.retryAfterSeconds),
				})
				res.end(body)
				return
			}
		}
		inFlight++
		let counted = true
		const done = () => {
			if (!counted) return
			counted = false
			inFlight--
		}
		res.once('finish', done)
		res.once('close', done)
		next()
	}
	return Object.defineProperties(middleware, {
		inFlight: { get: () => inFlight },
		shed: { get: () => shed },
	}) as Shedder
}
