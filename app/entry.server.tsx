import type { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { type ActionFunctionArgs, type EntryContext, type LoaderFunctionArgs, type RouterContextProvider, ServerRouter } from 'react-router'
import { getConfig } from './config/env.server'
import { log } from './log/logger.server'
import { startDatabaseCheckpoints, startMailWorker } from './repositories.server'
import { loggablePath } from './log/request-log.server'
import { nonceContext } from './security/http.server'
import { NonceProvider } from './ui/nonce'

/** What the server serves directly, read off this entry (scripts/lib/direct-routes.ts). */
export { directHandlers } from './direct-handlers.server'
export { directRequestOfNode } from './direct.server'

export const streamTimeout = 5_000

/**
 * Work the server runs beside requests: the outbox worker that sends mail, when sending is
 * configured, and on SQLite the thread that checkpoints the database. scripts/server.ts starts
 * them once listening and stops them while draining.
 */
export async function startBackgroundWork() {
	const config = getConfig()
	const mail = await startMailWorker(config)
	if (mail) log.info('[email] sending mail from the outbox')
	const checkpoints = await startDatabaseCheckpoints(config, (message) => log.warn(`[db] a background checkpoint failed: ${message}`))
	return { stop: async () => void (await Promise.all([mail?.stop(), checkpoints?.stop()])) }
}

/**
 * A loader's or action's unexpected error: one line through the logger (redacted, with the
 * request's id) instead of React Router's console.error. A request the client abandoned is not an error.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
	if (request.signal.aborted) return
	log.error({ err: error, method: request.method, path: loggablePath(new URL(request.url).pathname) }, '[store] a route failed')
}

/**
 * Where React writes a page that is sent whole: its chunks, kept until the page ends, then one
 * buffer. React only calls write (bytes, and a string now and then), end, on and destroy on it,
 * so it is a plain object rather than a stream.Writable: a Writable costs a callback and a state
 * update per 2 KB chunk, and emits 'close' once finished, which React answers by building an
 * Error to abort a render already done, on every page (docs/decisions/060). A page React gives
 * up on (destroy) fails its request instead of leaving it unanswered.
 */
export function pageSink({ done, failed }: { done: (body: Buffer<ArrayBuffer>) => void; failed: (error: unknown) => void }) {
	const chunks: Uint8Array[] = []
	let settled = false
	const sink = {
		write(chunk: Uint8Array | string) {
			if (!settled) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
			return true
		},
		end() {
			if (settled) return
			settled = true
			const body = Buffer.concat(chunks)
			chunks.length = 0
			done(body)
		},
		destroy(error?: unknown) {
			if (settled) return
			settled = true
			chunks.length = 0
			failed(error ?? new Error('The page could not be rendered.'))
		},
		on() {
			return sink
		},
	}
	return sink as unknown as Writable
}

export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: RouterContextProvider,
) {
	const nonce = loadContext.get(nonceContext)
	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		// Aborts a render that has not finished after the timeout. Cleared once the page is
		// complete: a pending timer keeps the whole render (request, data, stream) alive for 6 s,
		// which under load held thousands of finished pages in memory (500+ MB RSS).
		let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1_000)
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</NonceProvider>,
			{
				nonce,
				// Every page is sent whole, once everything in it is ready: what a page shows is
				// loaded before it renders, so streaming would only split the same bytes into more
				// chunks through three streams (see docs/performance.md). One buffer, with its length.
				onShellReady() {
					shellRendered = true
				},
				onAllReady() {
					pipe(
						pageSink({
							done(body) {
								clearTimeout(timeout)
								timeout = undefined
								responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
								responseHeaders.set('Content-Length', String(body.byteLength))
								resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }))
							},
							failed(error) {
								clearTimeout(timeout)
								timeout = undefined
								reject(error)
							},
						}),
					)
				},
				onShellError(error: unknown) {
					clearTimeout(timeout)
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
