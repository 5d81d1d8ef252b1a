import { randomFillSync } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import { createContext, type RouterContext, type ServerBuild } from 'react-router'
import type { Config } from '../config/env.server'
import { managedSignInOrigins } from '../config/operator-config'
import { jsonError, errorBody } from '../errors.server'
import { routeMatcher } from './rate-limit/route-match'
import { escapeHtml } from './escape-html'
import { log } from '../log/logger.server'

/**
 * The per-request CSP nonce, handed to entry.server.tsx through the router context.
 * Context keys match by identity, and the server (server/server.ts) and the app
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
 * (one OpenSSL call per 256 pages instead of one per page); each is handed out once.
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
 * (a browser told to insist on https for a site served over http is locked out).
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
				// blob: for the previews of images chosen in Store Admin's forms, before they are sent.
				'img-src': ["'self'", 'data:', 'blob:'],
				'font-src': ["'self'"],
				'object-src': ["'none'"],
				'base-uri': ["'self'"],
				// Checkout without JavaScript is a form post answered by a redirect to Stripe's page.
				// the managed sign-in form is answered by a redirect to the provider.
				'form-action': ["'self'", 'https://checkout.stripe.com', ...managedSignInOrigins(config)],
				'frame-ancestors': ["'none'"],
				'upgrade-insecure-requests': config.isProduction && config.appUrl.startsWith('https:') ? [] : null,
			},
		},
		referrerPolicy: { policy: 'same-origin' },
		strictTransportSecurity: config.appUrl.startsWith('https:') ? { maxAge: 63072000, includeSubDomains: true } : false,
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
 * a Referer from a trusted origin;
 * - else (no cookie, no browser metadata): a non-browser client, which has nothing to
 *   forge, may proceed.
 */
export function crossSiteVerdict(headers: { origin?: string; site?: string; referer?: string; cookie?: string }, trusted: ReadonlySet<string>): WriteVerdict {
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

/** A short page for a browser whose request was refused before any route ran; `html` is already escaped. */
const refusalPage = (heading: string, html: string) =>
	'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>' + `<body><h1>${heading}</h1><p>${html}</p></body></html>`

/**
 * Cross-site writes are refused before any route runs. Pages call better-auth
 * through `auth.api`, which skips its own origin check, so without this a
 * foreign page could sign a visitor in to the attacker's account (login CSRF).
 * The refusal names the origin the store expected [R40]: to the log, and on
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
		log.warn(
			`[store] refused a ${req.method} to ${req.path} from ${verdict.from.slice(0, 200)}; expected ${expected}. ` +
				'If the store is reached at another address, set AUTH_URL and APP_URL to it.',
		)
		res.status(403)
		if (req.accepts(['html', 'json']) === 'html') {
			res
				.type('html')
				.send(
					refusalPage(
						'Cross-site request refused',
						`This form was sent from ${escapeHtml(verdict.from.slice(0, 200))}, but this store only accepts forms ` +
							`from <a href="${escapeHtml(expected)}">${escapeHtml(expected)}</a>. Open the store at that address and try again.`,
					),
				)
			return
		}
		res.json(errorBody('CROSS_SITE_REQUEST_REFUSED', `Cross-site request refused; expected origin ${expected}`))
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

/**
 * The methods each resource route (a module without a page) serves, read from its module:
 * better-auth answers GET and POST only (its HEAD is a 404), uploads and provider events are
 * POSTs, media objects are read and deleted. Every other route is a page: see allowedMethods.
 */
export const RESOURCE_ROUTE_METHODS: Readonly<Record<string, readonly string[]>> = {
	'routes/api/auth': ['GET', 'POST'],
	'routes/api/upload': ['POST'],
	'routes/api/events': ['POST'],
	'routes/api/healthz': ['GET', 'HEAD'],
	'routes/api/readyz': ['GET', 'HEAD'],
	'routes/store/media': ['GET', 'HEAD', 'DELETE'],
	'routes/store/theme': ['GET', 'HEAD'],
	'routes/admin/newsletter-export': ['GET', 'HEAD'],
	'routes/admin/orders-export': ['GET', 'HEAD'],
	'routes/admin/products-export': ['GET', 'HEAD'],
}

type RouteExports = { default?: unknown; loader?: unknown; action?: unknown }

/**
 * [R42] What a route answers: a page is read with GET and HEAD, and takes POST only when it has
 * an action. React Router would otherwise hand PUT, PATCH and DELETE to that action as if they
 * were POSTs, and a page's action never looks at the method.
 */
export function allowedMethods(routeId: string, module: RouteExports): readonly string[] {
	const listed = RESOURCE_ROUTE_METHODS[routeId]
	if (listed) return listed
	const reads = module.default || module.loader ? ['GET', 'HEAD'] : []
	return module.action ? [...reads, 'POST'] : reads
}

/**
 * A request's path for the log: bounded, nothing that could start a new line, and never the
 * query (signed links carry their signature there).
 */
const loggable = (path: string) => path.slice(0, 200).replace(/[^\x21-\x7e]/g, (char) => `\\x${char.charCodeAt(0).toString(16)}`)

/**
 * A refusal made before any route runs: one log line and no stack (a refused request is the
 * client's mistake, not the store's), the one JSON error shape for APIs and non-browsers, a
 * short page for a browser.
 */
async function refuse(req: Request, res: Response, status: number, code: string, message: string, headers: Record<string, string> = {}) {
	log.warn(`[store] ${status} ${req.method} ${loggable(req.path)}: ${message}`)
	if (!req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html') {
		res
			.status(status)
			.set({ 'Cache-Control': 'no-store', ...headers })
			.type('html')
			.send(refusalPage('Request refused', escapeHtml(message)))
		return
	}
	const answer = jsonError(status, code, message, headers)
	res.status(answer.status)
	answer.headers.forEach((value, name) => res.setHeader(name, value))
	res.end(Buffer.from(await answer.arrayBuffer()))
}

function decodes(url: string) {
	try {
		decodeURIComponent(url)
		return true
	} catch {
		return false
	}
}

/** How much of a body answered early is still read and dropped; past it the connection is cut. */
export const DROP_LIMIT_BYTES = 32 * 1024 * 1024
/** How long the rest of a body answered early may take to arrive before the connection is cut. */
export const DROP_WINDOW_MS = 10_000

/**
 * [R43] The rest of a body answered before it was read to its end (a body refused past its
 * cap, an upload refused early) is read and dropped once the answer is sent, as Node drops a
 * body nobody started reading: the client, still sending, gets its answer instead of a reset,
 * and its next request on the kept-alive connection is not left waiting behind the unread
 * bytes. Up to DROP_LIMIT_BYTES and DROP_WINDOW_MS; past either the connection is cut.
 */
export function dropUnreadBodies(req: Request, res: Response, next: NextFunction) {
	res.once('finish', () => {
		// Read whole, or never started (Node drops that one itself).
		if (req.readableEnded || req.readableFlowing === null) return
		// The reader that stopped (a capped read, a web stream around it) lets go of it.
		req.removeAllListeners('data')
		let dropped = 0
		const cut = () => req.socket?.destroy()
		const timer = setTimeout(cut, DROP_WINDOW_MS)
		timer.unref()
		req.on('data', (chunk: Buffer) => {
			dropped += chunk.byteLength
			if (dropped > DROP_LIMIT_BYTES) {
				clearTimeout(timer)
				cut()
			}
		})
		req.once('end', () => clearTimeout(timer))
		req.once('close', () => clearTimeout(timer))
		req.resume()
	})
	next()
}

/**
 * [R42] 400 for a URL whose percent-escapes do not decode (`/products/%E0%A4%A`, `?q=%FF`),
 * path or query, before static files, Express's router or React Router try to decode it and
 * log their stack traces.
 */
export function rejectMalformedUrls(req: Request, res: Response, next: NextFunction) {
	if (!req.url.includes('%') || decodes(req.url)) return next()
	return refuse(req, res, 400, 'MALFORMED_URL', 'The address has a malformed percent-escape.')
}

/**
 * [R42] 405 with `Allow` for a method the route does not handle (allowedMethods), decided from
 * the route table before React Router runs, with the same matcher the rate limits use.
 */
export function rejectUnhandledMethods(build: ServerBuild | (() => Promise<ServerBuild>)) {
	const matchers = new WeakMap<ServerBuild, (pathname: string) => string | undefined>()
	return async (req: Request, res: Response, next: NextFunction) => {
		const current = typeof build === 'function' ? await build() : build
		let match = matchers.get(current)
		if (!match) matchers.set(current, (match = routeMatcher(current.routes)))
		const routeId = match(req.path)
		const route = routeId === undefined ? undefined : current.routes[routeId]
		if (!route) return next()
		const allowed = allowedMethods(route.id, route.module)
		if (allowed.includes(req.method)) return next()
		const allow = allowed.join(', ')
		return refuse(req, res, 405, 'METHOD_NOT_ALLOWED', `This address answers ${allow}, not ${req.method}.`, { Allow: allow })
	}
}
