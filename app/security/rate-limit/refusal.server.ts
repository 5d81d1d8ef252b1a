import type { MiddlewareFunction } from 'react-router'
import { jsonError } from '../../errors.server'
import { rateLimitContext, rateLimitHeaders, tooManyMessage, UNAVAILABLE } from './rate-limit.server'
import { escapeHtml } from '../escape-html'

export type Refusal = { status: number; code: string; message: string; headers: Readonly<Record<string, string>> }

/**
 * A refusal by a limiter as the client reads it: `{ code, message }` JSON for APIs and data
 * requests, a short page for browsers, with the refusing window's headers [R51, R54].
 */
export function refusalResponse({ pathname, wantsJson }: { pathname: string; wantsJson: boolean }, { status, code, message, headers }: Refusal): Response {
	if (pathname.startsWith('/api/') || pathname.endsWith('.data') || wantsJson) return jsonError(status, code, message, { ...headers })
	const title = status === 429 ? 'Too many requests' : 'Briefly unavailable'
	const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the store</a></p></body></html>`
	return new Response(page, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers } })
}

/**
 * Root route middleware: a form write the limiter refused answers its 429 (or 503) whatever the
 * page's loaders do afterwards [R51]. The action renders the refusal beside its form; but when
 * a loader of the same page then redirects (sign-in while signed in, the password page for a
 * guest) or fails (an unsubscribe link that is not valid), React Router would send that
 * redirect or error instead, and the refused request would look like any other.
 */
export const formRefusalMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const verdict = context.get(rateLimitContext)
	const response = await next()
	if (!verdict || (verdict !== 'unavailable' && verdict.success)) return response
	const refusal: Refusal =
		verdict === 'unavailable'
			? { status: 503, code: 'TEMPORARILY_UNAVAILABLE', message: UNAVAILABLE.message, headers: UNAVAILABLE.headers }
			: { status: 429, code: 'TOO_MANY_REQUESTS', message: tooManyMessage(verdict), headers: rateLimitHeaders(verdict) }
	if (response.status === refusal.status) return response
	const url = new URL(request.url)
	return refusalResponse({ pathname: url.pathname, wantsJson: wantsJsonOnly(request.headers.get('accept')) }, refusal)
}

/** Whether a client asked for JSON rather than a page (an API client), as Express's `req.accepts` would decide. */
export function wantsJsonOnly(accept: string | null) {
	if (!accept) return false
	return /application\/json/i.test(accept) && !/text\/html/i.test(accept)
}
