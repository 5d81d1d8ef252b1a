import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { getDb } from '../data/db.server'
import { runtimeStoreId } from '../data/runtime-store.server'
import type { Viewer } from '../data/viewer'
import { getAuth } from './auth.server'
import { issueGuestId, readGuestId } from './guest-cookie.server'
import { roleOf } from './roles'

type RequestViewer = {
	request: Request
	guestId: string
	/** Minted by this GET/HEAD request: see GuestViewer.fresh. */
	fresh: boolean
	setCookies: string[]
	viewer?: Promise<Viewer>
}

const viewerContext = createContext<RequestViewer | null>(null)

/**
 * Root middleware: makes the viewer available to every loader and action of the
 * request, read from the session at most once (and only when asked for), and
 * forwards the cookies that produced: a new guestId, better-auth's session refresh.
 * A guestId is minted only for a request that reads its viewer (every page does, in the
 * root loader): a provider's event delivery or a health probe is not a shopper, and is
 * answered without a cookie and without the signing it costs.
 */
export const viewerMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const state: RequestViewer = { request, guestId: (await readGuestId(request)) ?? '', fresh: false, setCookies: [] }
	context.set(viewerContext, state)

	return withCookies(await next(), state.setCookies)
}

/** The request's guestId, minted (and its cookie queued) the first time a request without one needs it. */
function withGuestId(state: RequestViewer) {
	if (!state.guestId) {
		const issued = issueGuestId()
		state.guestId = issued.guestId
		// A GET never writes: no cart can exist under an id this request minted.
		state.fresh = state.request.method === 'GET' || state.request.method === 'HEAD'
		state.setCookies.push(issued.setCookie)
	}
	return state
}

/** Appends cookies, copying the response first when its headers are immutable (Response.redirect). */
function withCookies(response: Response, cookies: string[]) {
	if (cookies.length === 0) return response
	let out = response
	try {
		for (const cookie of cookies) out.headers.append('Set-Cookie', cookie)
	} catch {
		out = new Response(response.body, response)
		for (const cookie of cookies) out.headers.append('Set-Cookie', cookie)
	}
	return out
}

export function viewerFrom(context: Readonly<RouterContextProvider>): Promise<Viewer> {
	const state = context.get(viewerContext)
	if (!state) throw new Error('viewerMiddleware must run before the viewer is read')
	state.viewer ??= loadViewer(withGuestId(state))
	return state.viewer
}

/**
 * better-auth's session cookie (`better-auth.session_token`, `__Secure-` prefixed on https).
 * Without one there is no session to look up: a guest, and better-auth is not asked.
 */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?better-auth\.session_token=/

export function hasSessionCookie(cookieHeader: string | null): boolean {
	return cookieHeader !== null && SESSION_COOKIE.test(cookieHeader)
}

async function loadViewer({ request, guestId, fresh, setCookies }: RequestViewer): Promise<Viewer> {
	const storeId = await runtimeStoreId(getDb())
	// most page views are guests'; they skip the session machinery entirely.
	if (!hasSessionCookie(request.headers.get('cookie'))) return fresh ? { kind: 'guest', storeId, guestId, fresh } : { kind: 'guest', storeId, guestId }
	const { headers, response } = await getAuth().api.getSession({
		headers: request.headers,
		returnHeaders: true,
	})
	setCookies.push(...headers.getSetCookie())
	const sessionStoreId = (response?.session as { storeId?: string } | undefined)?.storeId
	// A session minted for another Store is no session here.
	if (response && sessionStoreId === storeId && !response.user.banned) {
		return {
			kind: 'user',
			storeId,
			userId: response.user.id,
			email: response.user.email,
			name: response.user.name,
			role: roleOf(response.user.role),
			guestId,
			sessionId: response.session.id,
		}
	}
	return { kind: 'guest', storeId, guestId }
}

export { roleOf }
