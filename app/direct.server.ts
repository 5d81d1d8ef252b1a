import type { IncomingMessage } from 'node:http'
import { readBodyWithin, readNodeBodyWithin } from './security/body-limit.server'

/**
 * What a direct route reads of its request and what it answers (scripts/lib/direct-routes.ts,
 * docs/decisions/066 and 068). The server builds the request from Node's own request: no web
 * `Request`, no AbortController, no web stream around the body. The answer is a small text body
 * the server writes in one piece, with no web `Response` to build and read back.
 */
export type DirectRequest = {
	method: string
	/** As `Headers`: a header's value by name, any case; a repeated header's values joined with ", ". */
	headers: { get(name: string): string | null }
	/** The whole body, or a thrown BodyTooLargeError once it (or its declared length) passes `maxBytes`. */
	body(maxBytes: number): Promise<Uint8Array>
}

/** A direct route's answer: a status, its headers and a small text body. */
export type DirectAnswer = { status: number; headers: Record<string, string>; body: string }

/**
 * Node's request as a direct route reads it: its method, its headers as `Headers.get` answers
 * them (Node already joins a repeated header's values with ", "), and its body read once, with
 * the route's cap. Made here, beside the handlers, and reached by the server through the entry:
 * the server's own bundle has other copies of these modules, whose BodyTooLargeError a handler
 * would not recognize.
 */
export function directRequestOfNode(req: IncomingMessage): DirectRequest {
	let body: Promise<Buffer> | undefined
	return {
		method: req.method ?? 'GET',
		headers: {
			get(name) {
				const value = req.headers[name.toLowerCase()]
				return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
			},
		},
		body: (maxBytes) => (body ??= readNodeBodyWithin(req, maxBytes)),
	}
}

/** A web `Request` read as a direct route reads one (React Router's own path to the same route, and tests). */
export function directRequestOf(request: Request): DirectRequest {
	return { method: request.method, headers: request.headers, body: (maxBytes) => readBodyWithin(request, maxBytes) }
}

/** A direct answer as a web `Response`, its length stated (errors.server.ts says why). */
export function responseOf({ status, headers, body }: DirectAnswer): Response {
	return new Response(body, { status, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } })
}
