/**
 * The first step of every request (server/server.ts): a request id, echoed as `x-request-id`,
 * carried by every line logged while the request is handled, and one line when it is answered.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { requestLog, runWithRequestId } from './logger.server'

export const REQUEST_ID_HEADER = 'x-request-id'

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

/** A proxy's id is kept when it is one we can log safely; anything else gets a fresh one. */
export function requestIdFrom(header: string | string[] | undefined): string {
	return typeof header === 'string' && VALID_REQUEST_ID.test(header) ? header : randomUUID()
}

/**
 * A path for the log: no query (signed links carry their signature there), no order
 * confirmation token (`/orders/<token>` is the order's only key for a guest), bounded, and
 * nothing that could start a new line.
 */
export function loggablePath(url: string | undefined): string {
	const path = (url ?? '/').split('?')[0]!.split('#')[0]!
	return path
		.replace(/^\/orders\/[^/]+/, '/orders/[token]')
		.slice(0, 200)
		.replace(/[^\x21-\x7e]/g, (char) => `\\x${char.charCodeAt(0).toString(16)}`)
}

/**
 * Express (or plain Node) middleware. The line at the end says method, path, status and
 * duration: info for answers, warn for 5xx, so the error behind a 5xx can be found by its reqId.
 */
export function requestLogging() {
	return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
		const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER])
		const started = process.hrtime.bigint()
		res.setHeader(REQUEST_ID_HEADER, requestId)
		const answered = () => {
			res.off('finish', answered)
			res.off('close', answered)
			const ms = Number(process.hrtime.bigint() - started) / 1e6
			const line = {
				method: req.method,
				path: loggablePath(req.url),
				status: res.statusCode,
				ms: Math.round(ms * 10) / 10,
				aborted: !res.writableFinished || undefined,
			}
			runWithRequestId(requestId, () => (res.statusCode >= 500 ? requestLog.warn(line, 'request') : requestLog.info(line, 'request')))
		}
		res.once('finish', answered)
		res.once('close', answered)
		runWithRequestId(requestId, next)
	}
}
