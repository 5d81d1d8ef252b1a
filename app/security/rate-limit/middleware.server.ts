import type { NextFunction, Request, Response } from 'express'
import onHeaders from 'on-headers'
import type { ServerBuild } from 'react-router'
import { classify } from './classes'
import { clientKey } from './client-key'
import type { Decision } from './limiter.server'
import { rateLimitHeaders, type StoreLimiter, tooManyMessage, UNAVAILABLE } from './rate-limit.server'
import { refusalResponse } from './refusal.server'
import { routeMatcher } from './route-match'

/**
 * Counts every request against its route class BEFORE any route runs (and before scrypt on
 * sign-in), keyed by the client address Express resolved (`trust proxy` = TRUST_PROXY, so a
 * spoofed X-Forwarded-For changes nothing), an IPv6 address by its /64 [R56]. Limited classes carry X-RateLimit-* on every
 * response. Over the limit, or Redis unavailable for a class that fails closed: form pages
 * get the verdict and render it beside their form (their action checks it first);
 * everything else is answered here: 429 or 503 with Retry-After, `{ code, message }` JSON
 * for APIs and data requests, a short page for browsers [R51, R54].
 */
export function rateLimitMiddleware({
	limiter,
	build,
	onDecision,
}: {
	limiter: StoreLimiter
	build: ServerBuild | (() => Promise<ServerBuild>)
	onDecision: (res: Response, decision: Decision | 'unavailable') => void
}) {
	let match: ((pathname: string) => string | undefined) | undefined
	let matchedBuild: ServerBuild | undefined
	return async (req: Request, res: Response, next: NextFunction) => {
		try {
			const current = typeof build === 'function' ? await build() : build
			if (current !== matchedBuild) {
				matchedBuild = current
				match = routeMatcher(current.routes)
			}
			const routeId = match?.(req.path)
			const { routeClass, form } = classify(routeId, req.method)
			const decision = await limiter.check(clientKey(req.ip ?? 'unknown'), routeClass)
			if (decision === null) return next()
			const headers = decision === 'unavailable' ? UNAVAILABLE.headers : rateLimitHeaders(decision)
			if (decision !== 'unavailable' && decision.success) {
				unlessAnsweredFor(res, headers)
				return next()
			}
			if (form) {
				unlessAnsweredFor(res, headers)
				onDecision(res, decision)
				return next()
			}
			const [status, code, message] =
				decision === 'unavailable' ? [503, 'TEMPORARILY_UNAVAILABLE', UNAVAILABLE.message] : [429, 'TOO_MANY_REQUESTS', tooManyMessage(decision)]
			await send(res, refusalResponse({ pathname: req.path, wantsJson: req.accepts(['html', 'json']) === 'json' }, { status, code, message, headers }))
		} catch (error) {
			next(error)
		}
	}
}

/**
 * The class's headers, set as the response starts unless the route answered with a limit of
 * its own (the per-account sign-in refusal): exactly one Retry-After and one
 * X-RateLimit-Reset, for the window that refused the request [R51].
 */
function unlessAnsweredFor(res: Response, headers: Readonly<Record<string, string>>) {
	onHeaders(res, () => {
		if (res.getHeader('Retry-After') !== undefined || res.getHeader('X-RateLimit-Reset') !== undefined) return
		for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
	})
}

async function send(res: Response, response: globalThis.Response) {
	res.status(response.status)
	response.headers.forEach((value, name) => res.setHeader(name, value))
	res.end(Buffer.from(await response.arrayBuffer()))
}
