/**
 * A refusal a shopper or operator can act on: a status for the response and a message
 * for the page, optionally tied to one form field. Thrown by domain code, turned into a
 * 4xx by routes; never used for programmer errors.
 */
export class DomainError extends Error {
	override name = 'DomainError'
	constructor(
		// 502: a provider the store called (Stripe) refused or could not be reached.
		readonly status: 400 | 403 | 404 | 409 | 422 | 502,
		message: string,
		readonly field?: string,
	) {
		super(message)
	}
}

/** A write that gave up under contention (checkout, an admin cancel): nothing was written, and the
 * caller answers 503 with Retry-After [R67]. */
export class StoreBusyError extends Error {
	override name = 'StoreBusyError'
	readonly retryAfterSeconds = 2
	constructor(message = 'The store is busy right now. Your cart is saved: please try again in a moment.') {
		super(message)
	}
}

export const notFound = (what: string) => new DomainError(404, `${what} was not found.`)

/**
 * The one JSON error shape of every API the store answers: `{ code, message }`, the same
 * shape better-auth gives its own errors under /api/auth/*, so a client reads one shape.
 * `code` is a stable UPPER_SNAKE identifier; `message` is for people.
 */
export type ErrorBody = { code: string; message: string }

export const errorBody = (code: string, message: string): ErrorBody => ({ code, message })

export function jsonError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
	return jsonResponse(errorBody(code, message), { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}

/**
 * A JSON response that states its length, as `Response.json` does not. React Router streams
 * every body to Express, so without the length the compression middleware cannot see that a
 * body is under its threshold, and gzipped each acknowledgement of a few dozen bytes: a zlib
 * stream per response (about 8% of a provider-event delivery's CPU). Large bodies are still
 * compressed.
 */
export function jsonResponse(body: unknown, { status = 200, headers = {} }: { status?: number; headers?: Record<string, string> } = {}) {
	const text = JSON.stringify(body)
	return new Response(text, { status, headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers } })
}
