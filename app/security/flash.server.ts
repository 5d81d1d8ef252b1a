import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider, redirect } from 'react-router'
import { getConfig } from '../config/env.server'
import type { Flash } from '../rules/flash'

/**
 * One-time notices after a successful save ("Password changed"), carried across the
 * redirect that follows a POST in a short-lived signed cookie, shown once by the root
 * layout and then cleared. Works the same with and without JavaScript.
 */

const MAX_MESSAGE = 200

function flashCookie() {
	const config = getConfig()
	return createCookie('flash', {
		secrets: [config.authSecret],
		httpOnly: true,
		sameSite: 'lax',
		secure: config.appUrl.startsWith('https:'),
		path: '/',
		maxAge: 60,
	})
}

/** A redirect that shows `message` once on the page it leads to. */
export async function redirectWithFlash(to: string, message: string, init: { headers?: Headers } = {}) {
	const headers = new Headers(init.headers)
	const flash: Flash = { kind: 'success', message: message.slice(0, MAX_MESSAGE) }
	headers.append('Set-Cookie', await flashCookie().serialize(flash))
	return redirect(to, { headers })
}

type FlashState = { flash: Flash | null; read: boolean }

const flashContext = createContext<FlashState | null>(null)

function isFlash(value: unknown): value is Flash {
	if (typeof value !== 'object' || value === null) return false
	const { kind, message } = value as Record<string, unknown>
	return (kind === 'success' || kind === 'info') && typeof message === 'string' && message.length <= MAX_MESSAGE
}

/** Root middleware: parses the flash cookie; clears it once a page has shown it. */
export const flashMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const cookieHeader = request.headers.get('cookie')
	if (!cookieHeader?.includes('flash=')) return next()
	const value: unknown = await flashCookie().parse(cookieHeader)
	const state: FlashState = { flash: isFlash(value) ? value : null, read: false }
	context.set(flashContext, state)
	const response = await next()
	if (!state.read && state.flash) return response
	// This response sets a new notice (a save right after another): keep that one.
	if (response.headers.getSetCookie().some((cookie) => cookie.startsWith('flash='))) return response
	const clear = await flashCookie().serialize('', { maxAge: 0 })
	try {
		response.headers.append('Set-Cookie', clear)
		return response
	} catch {
		// Response.redirect() and friends have immutable headers: copy, then append.
		const copy = new Response(response.body, response)
		copy.headers.append('Set-Cookie', clear)
		return copy
	}
}

/** The notice to show on this page, if any (marks it shown). */
export function readFlash(context: Readonly<RouterContextProvider>): Flash | null {
	const state = context.get(flashContext)
	if (!state) return null
	state.read = true
	return state.flash
}
