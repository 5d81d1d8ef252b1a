import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import { createContext, type RouterContext } from 'react-router'
import type { Config } from '../config/env.server'

/**
 * The per-request CSP nonce, handed to entry.server.tsx through the router context.
 * Context keys match by identity, and the server (scripts/server.ts) and the app
 * build each load this module: one key on globalThis serves both copies.
 */
const globalForNonce = globalThis as unknown as { storeNonceContext?: RouterContext<string> }
globalForNonce.storeNonceContext ??= createContext<string>('')
export const nonceContext = globalForNonce.storeNonceContext

type Locals = { cspNonce: string }

function nonceOf(res: ServerResponse) {
	return `'nonce-${(res as Response<unknown, Locals>).locals.cspNonce}'`
}

/**
 * Security headers on every response, static files included: an enforced CSP
 * whose only script allowance besides our own files is this request's nonce,
 * `frame-ancestors 'none'`, nosniff, a same-origin referrer policy (full URL,
 * `redirectTo` included, only to ourselves) and HSTS in production.
 */
export function securityHeaders(config: Config) {
	const dev = config.nodeEnv === 'development'
	const withNonce = (_req: IncomingMessage, res: ServerResponse) => nonceOf(res)
	const setNonce = (_req: Request, res: Response, next: NextFunction) => {
		res.locals.cspNonce = randomBytes(16).toString('base64')
		next()
	}
	const headers = helmet({
		contentSecurityPolicy: {
			useDefaults: false,
			directives: {
				'default-src': ["'self'"],
				'script-src': ["'self'", withNonce],
				// Vite's dev server injects styles and opens a websocket; the build needs neither.
				'style-src': dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
				'connect-src': dev ? ["'self'", 'ws:'] : ["'self'"],
				'img-src': ["'self'", 'data:'],
				'font-src': ["'self'"],
				'object-src': ["'none'"],
				'base-uri': ["'self'"],
				'form-action': ["'self'"],
				'frame-ancestors': ["'none'"],
				'upgrade-insecure-requests': config.isProduction && config.appUrl.startsWith('https:') ? [] : null,
			},
		},
		referrerPolicy: { policy: 'same-origin' },
		strictTransportSecurity: config.isProduction
			? { maxAge: 63072000, includeSubDomains: true }
			: false,
		xFrameOptions: { action: 'deny' },
	})
	return [setNonce, headers] as const
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cross-site writes are refused before any route runs. Pages call better-auth
 * through `auth.api`, which skips its own origin check, so without this a
 * foreign page could sign a visitor in to the attacker's account (login CSRF).
 * A browser always sends Origin (or Sec-Fetch-Site) on a cross-site POST;
 * requests with neither come from non-browser clients and carry no ambient cookies risk.
 */
export function rejectCrossSiteWrites(config: Config) {
	const trusted = new Set([config.authUrl, config.appUrl])
	return (req: Request, res: Response, next: NextFunction) => {
		if (SAFE_METHODS.has(req.method)) return next()
		const origin = req.get('origin')
		const site = req.get('sec-fetch-site')
		const allowed =
			origin !== undefined
				? trusted.has(origin)
				: site === undefined || site === 'same-origin' || site === 'none'
		if (allowed) return next()
		res.status(403).type('text/plain').send('Cross-site request refused')
	}
}

/**
 * The client address as Express resolved it (socket, or the one trusted proxy's
 * X-Forwarded-For hop), under a header the client cannot choose: any incoming
 * value is overwritten. better-auth's limiter keys on it.
 */
export const CLIENT_IP_HEADER = 'x-store-client-ip'

export function stampClientIp(req: Request, _res: Response, next: NextFunction) {
	req.headers[CLIENT_IP_HEADER] = req.ip ?? 'unknown'
	next()
}
