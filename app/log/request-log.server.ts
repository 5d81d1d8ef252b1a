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
 * Paths whose next segment is a secret, as the route table and better-auth serve them [R13]:
 * an Order's confirmation token (a guest's only key to it, `/orders/<token>`) and a
 * password-reset link's token (better-auth's `/api/auth/reset-password/<token>`, which it answers
 * with a redirect that carries the token in the query). Newsletter links, reset pages and OAuth
 * callbacks carry theirs in the query, which is never logged. A test walks the route table and
 * better-auth's endpoints, so a new path with a secret in it cannot be left out of this list.
 */
export const SECRET_PATH_PREFIXES: readonly (readonly string[])[] = [['orders'], ['api', 'auth', 'reset-password']]

/** A segment as a router compares it: percent-decoded (where it decodes) and in lower case. */
function asRouted(segment: string) {
	try {
		return decodeURIComponent(segment).toLowerCase()
	} catch {
		return segment.toLowerCase()
	}
}

/**
 * A path for the log: no query (signed links carry their signature there), no secret segment
 * (SECRET_PATH_PREFIXES, matched as the router matches: any case, percent-encoded, with repeated
 * slashes), bounded, and nothing that could start a new line.
 */
export function loggablePath(url: string | undefined): string {
	const path = (url ?? '/').split('?')[0]!.split('#')[0]!
	const segments = path.split('/')
	const named = segments.flatMap((segment, index) => (segment === '' ? [] : [{ index, name: asRouted(segment) }]))
	for (const prefix of SECRET_PATH_PREFIXES) {
		const secret = named[prefix.length]
		if (secret && prefix.every((name, at) => named[at]!.name === name)) segments[secret.index] = '[token]'
	}
	return segments
		.join('/')
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
