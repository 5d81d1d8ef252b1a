import { PassThrough } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { renderToPipeableStream } from 'react-dom/server'
import { type ActionFunctionArgs, type EntryContext, type LoaderFunctionArgs, type RouterContextProvider, ServerRouter } from 'react-router'
import { getConfig } from './config/env.server'
import { noteOutage } from './health/outage.server'
import { log } from './log/logger.server'
import { startDatabaseCheckpoints, startEventWorker, startMailWorker } from './repositories.server'
import { loggablePath } from './log/request-log.server'
import { nonceContext } from './security/http.server'
import { NonceProvider } from './ui/nonce'

export const streamTimeout = 5_000

/**
 * Work the server runs beside requests: the event worker that applies provider events, the
 * outbox worker that sends mail (when sending is configured), and on SQLite the thread that
 * checkpoints the database. server/server.ts starts them once listening and stops them while
 * draining.
 */
export async function startBackgroundWork() {
	const config = getConfig()
	const events = startEventWorker({ warn: (line) => log.warn(line), error: (line) => log.error(line) })
	const mail = await startMailWorker(config)
	if (mail) log.info('[email] sending mail from the outbox')
	const checkpoints = await startDatabaseCheckpoints(config, (message) => log.warn(`[db] a background checkpoint failed: ${message}`))
	return { stop: async () => void (await Promise.all([events.stop(), mail?.stop(), checkpoints?.stop()])) }
}

/**
 * A loader's or action's unexpected error: one line through the logger (redacted, with the
 * request's id) instead of React Router's console.error. A request the client abandoned is not an error.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
	if (request.signal.aborted) return
	// [R124] The database away: the request answers 503 (databaseOutageMiddleware), one line, no stack.
	if (noteOutage(error, context)) {
		log.warn({ method: request.method, path: loggablePath(new URL(request.url).pathname) }, '[store] the database did not answer: 503 with Retry-After')
		return
	}
	log.error({ err: error, method: request.method, path: loggablePath(new URL(request.url).pathname) }, '[store] a route failed')
}

export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: RouterContextProvider,
) {
	const nonce = loadContext.get(nonceContext)
	// React Router's Node entry, with every page sent once it is complete, as one body with its
	// length (docs/decisions/050): what a page shows is loaded before it renders, so there is
	// nothing to stream, and a page that fails while rendering can still answer 500.
	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		// Aborts a render that has not finished after the timeout; cleared once the page is
		// complete: a pending timer keeps the whole render (request, data, stream) alive until it fires.
		let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1_000)
		const settle = () => {
			clearTimeout(timeout)
			timeout = undefined
		}
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</NonceProvider>,
			{
				nonce,
				onShellReady() {
					shellRendered = true
				},
				onAllReady() {
					const page = new PassThrough()
					pipe(page)
					buffer(page).then(
						(body) => {
							settle()
							responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
							responseHeaders.set('Content-Length', String(body.byteLength))
							resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }))
						},
						(error: unknown) => {
							settle()
							reject(error)
						},
					)
				},
				onShellError(error: unknown) {
					settle()
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					if (shellRendered) log.error({ err: error, path: loggablePath(new URL(request.url).pathname) }, '[store] a page failed while streaming')
				},
			},
		)
	})
}
