/**
 * Starts the store: `npm start` (production build) or `npm run dev` (Vite dev server).
 * In production it refuses to start on a bad AUTH_SECRET [R10] and exits non-zero.
 */
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import compression from 'compression'
import express from 'express'
import onHeaders from 'on-headers'
import sirv from 'sirv'
import { RouterContextProvider, type ServerBuild } from 'react-router'
import {
	dropUnreadBodies,
	nonceContext,
	rejectCrossSiteWrites,
	rejectMalformedUrls,
	rejectUnhandledMethods,
	securityHeaders,
	stampClientIp,
} from '../app/security/http.server'
import type { Decision } from '../app/security/rate-limit/limiter.server'
import { rateLimitMiddleware } from '../app/security/rate-limit/middleware.server'
import { getStoreLimiter, rateLimitContext } from '../app/security/rate-limit/rate-limit.server'
import { workloadCredentialGuard } from '../app/auth/workload-credential.server'
import { closeInvalidationBus } from '../app/data/invalidation.server'
import { releaseEstimator } from '../app/rules/strength.server'
import { sweepTemporaryFiles } from '../app/uploads/storage/disk.server'
import { log, routeConsoleToLog } from '../app/log/logger.server'
import { requestLogging } from '../app/log/request-log.server'
import { loadConfigOrExit, storedSecretsReadableOrExit } from './config'
import { drainOnSignal, listen } from './lifecycle'
import { partitionedRequestHandler } from './route-partitions'
import { shedOverload } from './overload'
import { loopLateMs } from '../app/data/event-loop.server'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm start | npm run dev

Serves the store on HOST:PORT (default 0.0.0.0:3000). Reads .env when present.
\`npm start\` runs build/server.js (this file, compiled by \`npm run build\`) with
NODE_ENV=production: it serves ./build and refuses to start unless AUTH_SECRET
passes the secret policy. \`npm run dev\` runs Vite in middleware mode with hot reload.
It exits 1 with one line when it cannot listen (e.g. the port is in use). On SIGTERM,
SIGINT or SIGHUP it stops accepting connections and gives requests in flight
SHUTDOWN_DRAIN_SECONDS (default 10) to finish: exit 0 when all did, 1 when some were cut.`)
	process.exit(0)
}

// From here on every line the process prints, a library's console output included, is one redacted JSON line [R13].
routeConsoleToLog()

// Whatever escapes every handler is logged once, through the redaction, instead of Node's raw
// stack on stderr (an Error's message could carry a connection string) [R13]; then the process ends.
process.on('uncaughtException', (error, origin) => {
	log.fatal({ err: error, origin }, `[store] stopped: ${origin === 'unhandledRejection' ? 'a promise rejected unhandled' : 'an uncaught exception'}`)
	process.exit(1)
})

const report = { info: (line: string) => log.info(line), error: (line: string) => log.error(line) }
const config = loadConfigOrExit('store', report)
await storedSecretsReadableOrExit('store', config, report)
if (config.uploads.storage !== 's3') {
	// Temporary files of writes a killed process never finished [R34]; in the background, start-up does not wait.
	void sweepTemporaryFiles(config.uploads.dir)
		.then((removed) => removed > 0 && log.info(`[store] removed ${removed} temporary upload file(s) a stopped process left behind`))
		.catch((error: NodeJS.ErrnoException) => log.warn(`[store] could not sweep temporary upload files (${error.code ?? error.message})`))
}
// The start-up secret check is done; sign-up builds the estimator again when it needs it.
releaseEstimator()
if (config.usesDevFallbackSecret) {
	log.warn('[store] AUTH_SECRET is unset: using the local-only development fallback.')
}
if (config.isProduction && !config.publicUrlConfigured) {
	log.warn(
		`[store] WARNING: AUTH_URL and APP_URL are not set; the public URL is assumed to be ${config.appUrl}. ` +
			'Set both to the real https:// address before the store is reachable from the internet.',
	)
}

// server/server.ts (dev, via tsx) and build/server.js (production) both sit one level below the root.
const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Static files from a list made once at start (sirv): a page request is one map lookup and
 * never touches the disk (express.static stat()ed every page URL and built a 404
 * error object for it). GET and HEAD only; other methods go on to the routes.
 */
function staticFiles(dir: string, options: { maxAge: number; immutable?: boolean }) {
	const serve = sirv(dir, { dev: false, etag: true, extensions: [], ...options })
	return (req: express.Request, res: express.Response, next: express.NextFunction) =>
		req.method === 'GET' || req.method === 'HEAD' ? serve(req, res, next) : next()
}

/** At most one line a second while shedding, with the count since the last. */
function overloadLog() {
	let last = 0
	let since = 0
	return (priority: string, reason: string) => {
		since++
		const now = Date.now()
		if (now - last < 1_000) return
		log.warn(`[store] overloaded (${reason}): answering 503 to ${since} request(s), the last a ${priority}`)
		last = now
		since = 0
	}
}

const app = express()
app.disable('x-powered-by')
// [R125] Overloaded: a fast 503 before any work (request line, session, limits, render);
// health checks pass. Shed requests are counted in one line a second, not one line each.
app.use(shedOverload({ ...config.overload, protectedHeadroom: 1.5, retryAfterSeconds: 2 }, loopLateMs, overloadLog()))
// Before every step that can answer or log, so every line logged for a request (refusals included)
// carries its id, and every answer echoes it.
app.use(requestLogging())
// [R43] The rest of a body answered before it was read to its end is dropped after the answer.
app.use(dropUnreadBodies)
// Only the configured number of proxies may speak for the client's address.
app.set('trust proxy', config.trustProxy)
app.use(...securityHeaders(config))
// [R42] Before static files and routes try to decode the URL (each logged a stack trace).
app.use(rejectMalformedUrls)
app.use(compression())
// the workload credential never authenticates a request, in any header or the URL.
app.use(workloadCredentialGuard(config))

let build: ServerBuild | (() => Promise<ServerBuild>)
if (config.isProduction) {
	const buildPath = join(root, 'build/server/index.js')
	if (!existsSync(buildPath)) {
		log.error('[store] No build found: run `npm run build` first.')
		process.exit(1)
	}
	app.use('/assets', staticFiles(join(root, 'build/client/assets'), { immutable: true, maxAge: 31_536_000 }))
	// The build holds public/ too (Vite copies it), so one list serves both.
	app.use(staticFiles(join(root, 'build/client'), { maxAge: 3600 }))
	build = (await import(pathToFileURL(buildPath).href)) as ServerBuild
} else {
	const vite = await import('vite').then(({ createServer }) => createServer({ root, server: { middlewareMode: true } }))
	app.use(vite.middlewares)
	build = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
}

app.use(rejectCrossSiteWrites(config))
// Pages and data depend on the session: no shared cache may keep them, unless the
// route said otherwise (a product image): the default is set only where none was.
app.use((_req, res, next) => {
	onHeaders(res, () => {
		if (!res.getHeader('Cache-Control')) res.setHeader('Cache-Control', 'private, no-store')
	})
	next()
})
app.use(stampClientIp)
// [R50] four route classes; counted before any route runs (app/security/rate-limit/).
const limiter = getStoreLimiter(config)
app.use(
	rateLimitMiddleware({
		limiter,
		build,
		onDecision: (res, decision) => {
			res.locals.rateLimit = decision
		},
	}),
)
// [R42] Counted by the limits first, then refused before React Router runs an action for it.
app.use(rejectUnhandledMethods(build))
// The context every route reads: the page's CSP nonce and the rate limit's verdict.
const getLoadContext = (_req: express.Request, res: express.Response) => {
	const context = new RouterContextProvider()
	context.set(nonceContext, res.locals.cspNonce as string)
	context.set(rateLimitContext, (res.locals.rateLimit as Decision | undefined) ?? null)
	return context
}
// One React Router handler per first path segment, each over the routes that segment can
// match (server/route-partitions.ts): the same answers, a fraction of the per-request work.
app.all(
	'/{*path}',
	partitionedRequestHandler({
		build,
		mode: config.nodeEnv,
		getLoadContext,
	}),
)

const server = createServer(app)
let background: { stop(): Promise<unknown> } | undefined
// Counted from the first request, so a signal knows what is still in flight.
const onSignal = drainOnSignal({
	server,
	drainMs: config.shutdownDrainMs,
	stopped: () => Promise.all([limiter.close(), closeInvalidationBus(), background?.stop()]),
	log: (line) => log.info(line),
	warn: (line) => log.warn(line),
})
// `npm start` and the Dockerfile exec this process, so the platform's signal reaches it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => onSignal(signal))

try {
	const port = await listen(server, config.port, config.host)
	log.info(`[store] listening on http://localhost:${port} (${config.nodeEnv}, Node ${process.version})`)
	// The outbox worker lives in the app's build (one copy of its modules); its entry exports the start.
	const entry = (typeof build === 'function' ? await build() : build).entry.module as { startBackgroundWork?: () => Promise<{ stop(): Promise<unknown> }> }
	background = await entry.startBackgroundWork?.()
} catch (error) {
	log.fatal(`[store] not started: ${(error as Error).message}`)
	process.exit(1)
}
