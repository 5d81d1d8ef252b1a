import { randomFillSync } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import { createContext, type RouterContext } from 'react-router'
import type { Config } from '../config/env.server'
import { managedSignInOrigins } from '../auth/operator-config'

/**
 * The per-request CSP nonce, handed to entry.server.tsx through the router context.
 * Context keys match by identity, and the server (scripts/server.ts) and the app
 * build each load this module: one key on globalThis serves both copies.
 */
const globalForNonce = globalThis as unknown as { storeNonceContext?: RouterContext<string> }
globalForNonce.storeNonceContext ??= createContext<string>('')
export const nonceContext = globalForNonce.storeNonceContext

type Locals = { cspNonce: string }

const NONCE_BYTES = 16
const noncePool = Buffer.alloc(NONCE_BYTES * 256)
let nonceOffset = noncePool.length

/**
 * A fresh 128-bit CSP nonce, base64. Cut from a pool the CSPRNG refills 256 nonces at a time
 * (issue 11: one OpenSSL call per 256 pages instead of one per page); each is handed out once.
 */
export function nextNonce(): string {
	if (nonceOffset === noncePool.length) {
		randomFillSync(noncePool)
		nonceOffset = 0
	}
	const nonce = noncePool.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES)
	nonceOffset += NONCE_BYTES
	return nonce
}

function nonceOf(res: ServerResponse) {
	return `'nonce-${(res as Response<unknown, Locals>).locals.cspNonce}'`
}

/**
 * Security headers on every response, static files included: an enforced CSP
 * whose only script allowance besides our own files is this request's nonce,
 * `frame-ancestors 'none'`, nosniff, a same-origin referrer policy (full URL,
 * `redirectTo` included, only to ourselves) and HSTS when the public URL is https
 * (issue 5.5: a browser told to insist on https for a site served over http is locked out).
 */
export function securityHeaders(config: Config) {
	const dev = config.nodeEnv === 'development'
	const withNonce = (_req: IncomingMessage, res: ServerResponse) => nonceOf(res)
	const setNonce = (_req: Request, res: Response, next: NextFunction) => {
		res.locals.cspNonce = nextNonce()
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
				// Checkout without JavaScript is a form post answered by a redirect to Stripe's page.
				// Issue 10: the managed sign-in form is answered by a redirect to the provider.
				'form-action': ["'self'", 'https://checkout.stripe.com', ...managedSignInOrigins(config)],
				'frame-ancestors': ["'none'"],
				'upgrade-insecure-requests': config.isProduction && config.appUrl.startsWith('https:') ? [] : null,
			},
		},
		referrerPolicy: { policy: 'same-origin' },
		strictTransportSecurity: config.appUrl.startsWith('https:')
			? { maxAge: 63072000, includeSubDomains: true }
			: false,
		xFrameOptions: { action: 'deny' },
	})
	return [setNonce, headers] as const
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

type WriteVerdict = { ok: true } | { ok: false; from: string }

/**
 * Whether a state-changing request may proceed (docs/decisions/011-cross-site-writes.md):
 * - with Sec-Fetch-Site: only same-origin (or none: typed by the user), and then
 * - with an Origin header: only a trusted origin;
 * - else with cookies (ambient credentials a forged request would ride on): only with
 *   a Referer from a trusted origin (issue 5.6);
 * - else (no cookie, no browser metadata): a non-browser client, which has nothing to
 *   forge, may proceed.
 */
export function crossSiteVerdict(
	headers: { origin?: string; site?: string; referer?: string; cookie?: string },
	trusted: ReadonlySet<string>,
): WriteVerdict {
	const { origin, site, referer, cookie } = headers
	// A browser that says the request is not same-origin is believed, whatever Origin says.
	if (site !== undefined && site !== 'same-origin' && site !== 'none') return { ok: false, from: `a ${site} page` }
	if (origin !== undefined) return trusted.has(origin) ? { ok: true } : { ok: false, from: origin }
	if (site !== undefined) return { ok: true }
	if (!cookie) return { ok: true }
	const refererOrigin = originOf(referer)
	if (refererOrigin && trusted.has(refererOrigin)) return { ok: true }
	return { ok: false, from: refererOrigin ?? 'an unknown origin (no Origin, Sec-Fetch-Site or Referer header)' }
}

function originOf(url: string | undefined) {
	if (!url) return null
	try {
		return new URL(url).origin
	} catch {
		return null
	}
}

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * Cross-site writes are refused before any route runs. Pages call better-auth
 * through `auth.api`, which skips its own origin check, so without this a
 * foreign page could sign a visitor in to the attacker's account (login CSRF).
 * The refusal names the origin the store expected (issue 5.10): to the log, and on
 * a short page, so a store opened under another address (127.0.0.1 vs localhost, a
 * changed port) says what to do instead of failing mutely.
 */
export function rejectCrossSiteWrites(config: Config) {
	const trusted = new Set(config.trustedOrigins)
	const expected = config.appUrl
	return (req: Request, res: Response, next: NextFunction) => {
		if (SAFE_METHODS.has(req.method)) return next()
		const verdict = crossSiteVerdict(
			{ origin: req.get('origin'), site: req.get('sec-fetch-site'), referer: req.get('referer'), cookie: req.get('cookie') },
			trusted,
		)
		if (verdict.ok) return next()
		console.warn(
			`[store] refused a ${req.method} to ${req.path} from ${verdict.from.slice(0, 200)}; expected ${expected}. ` +
				'If the store is reached at another address, set AUTH_URL and APP_URL to it.',
		)
		res.status(403)
		if (req.accepts(['html', 'json']) === 'html') {
			res.type('html').send(
				'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>' +
					'<body><h1>Cross-site request refused</h1>' +
					`<p>This form was sent from ${escapeHtml(verdict.from.slice(0, 200))}, but this store only accepts forms ` +
					`from <a href="${escapeHtml(expected)}">${escapeHtml(expected)}</a>. Open the store at that address and try again.</p>` +
					'</body></html>',
			)
			return
		}
		res.json({ code: 'CROSS_SITE_REQUEST_REFUSED', message: `Cross-site request refused; expected origin ${expected}` })
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
