import type { MiddlewareFunction, RouterContextProvider } from 'react-router'
import { isDatabaseUnreachable } from '../data/outage.server'
import { refusalResponse, wantsJsonOnly } from '../security/rate-limit/refusal.server'

/**
 * [R124] While the database cannot be reached, a page or form that needs it answers 503 with
 * Retry-After and a page saying the store is briefly unavailable, never 500: a shopper learns
 * to try again in a moment, and a balancer or monitor sees an outage rather than a bug.
 */
export const OUTAGE = {
	status: 503,
	code: 'TEMPORARILY_UNAVAILABLE',
	message: 'The store is briefly unavailable. Please try again in a few seconds.',
	headers: { 'Retry-After': '5' },
} as const

/** The requests (by their router context) whose route failed because the database was away. */
const outages = new WeakSet<Readonly<RouterContextProvider>>()

/** From handleError: remembers that this request failed on an unreachable database; true when it did. */
export function noteOutage(error: unknown, context: Readonly<RouterContextProvider> | undefined) {
	if (!context || !isDatabaseUnreachable(error)) return false
	outages.add(context)
	return true
}

/**
 * Root middleware, first of all: a response React Router made 500 for a route (or route
 * middleware) that failed on an unreachable database becomes the outage's 503.
 */
export const databaseOutageMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const response = await next()
	if (response.status !== 500 || !outages.has(context)) return response
	return refusalResponse({ pathname: new URL(request.url).pathname, wantsJson: wantsJsonOnly(request.headers.get('accept')) }, OUTAGE)
}
