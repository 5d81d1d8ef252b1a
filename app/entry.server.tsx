import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { type ActionFunctionArgs, type EntryContext, type LoaderFunctionArgs, type RouterContextProvider, ServerRouter } from 'react-router'
import { getConfig } from './config/env.server'
import { log } from './log/logger.server'
import { startMailWorker } from './repositories.server'
import { loggablePath } from './log/request-log.server'
import { nonceContext } from './security/http.server'
import { NonceProvider } from './ui/nonce'

export const streamTimeout = 5_000

/**
 * Work the server runs beside requests: the outbox worker that sends mail, when sending is
 * configured. scripts/server.ts starts it once listening and stops it while draining.
 */
export async function startBackgroundWork() {
	const mail = await startMailWorker(getConfig())
	if (mail) log.info('[email] sending mail from the outbox')
	return { stop: async () => mail?.stop() }
}

/**
 * A loader's or action's unexpected error: one line through the logger (redacted, with the
 * request's id) instead of React Router's console.error. A request the client abandoned is not an error.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
	if (request.signal.aborted) return
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
	const waitForAll = isbot(request.headers.get('user-agent')) || routerContext.isSpaMode
	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		// Aborts a render still streaming after the timeout. Cleared once the body is complete:
		// a pending timer keeps the whole render (request, data, stream) alive for 6 s, which
		// under load held thousands of finished pages in memory (500+ MB RSS).
		let timeout: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1_000)
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</NonceProvider>,
			{
				nonce,
				[waitForAll ? 'onAllReady' : 'onShellReady']() {
					shellRendered = true
					const body = new PassThrough({
						final(callback) {
							clearTimeout(timeout)
							timeout = undefined
							callback()
						},
					})
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					resolve(
						new Response(createReadableStreamFromReadable(body), {
							headers: responseHeaders,
							status: responseStatusCode,
						}),
					)
					pipe(body)
				},
				onShellError: reject,
				onError(error: unknown) {
					responseStatusCode = 500
					if (shellRendered) log.error({ err: error, path: loggablePath(new URL(request.url).pathname) }, '[store] a page failed while streaming')
				},
			},
		)
	})
}
