import type { NextFunction, Request, Response } from 'express'
import type { ServerBuild } from 'react-router'
import { classify } from './classes'
import { rateLimitHeaders, type StoreLimiter, tooManyMessage } from './rate-limit.server'
import { routeMatcher } from './route-match'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * Counts every request against its route class BEFORE any route runs (and before scrypt on
 * sign-in), keyed by the client address Express resolved (`trust proxy` = TRUST_PROXY, so a
 * spoofed X-Forwarded-For changes nothing). Limited classes carry X-RateLimit-* on every
 * response. Over the limit: form pages get the decision and render the 429 beside their form;
 * everything else gets 429 here (JSON for APIs, a short page for browsers), with Retry-After.
 * Redis gone: General falls back to memory, the other classes answer 503 with Retry-After.
 */
export function rateLimitMiddleware({
	limiter,
	build,
	onDecision,
}: {
	limiter: StoreLimiter
	build: ServerBuild | (() => Promise<ServerBuild>)
	onDecision: (res: Response, decision: import('./limiter.server').Decision) => void
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
			const decision = await limiter.check(req.ip ?? 'unknown', routeClass)
			if (decision === null) return next()
			if (decision === 'unavailable') {
				res.status(503).set({ 'Retry-After': '5', 'Cache-Control': 'no-store' }).json({ error: 'Temporarily unavailable: please retry shortly.' })
				return
			}
			res.set(rateLimitHeaders(decision))
			if (decision.success) return next()
			if (form) {
				onDecision(res, decision)
				return next()
			}
			res.status(429).set('Cache-Control', 'no-store')
			const message = tooManyMessage(decision)
			if (req.path.startsWith('/api/') || req.accepts(['html', 'json']) === 'json') {
				res.json({ error: 'TOO_MANY_REQUESTS', message })
				return
			}
			res
				.type('html')
				.send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><h1>Too many requests</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the store</a></p></body></html>`)
		} catch (error) {
			next(error)
		}
	}
}
