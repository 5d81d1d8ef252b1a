import { APIError } from 'better-auth/api'
import { getAuth } from './auth.server'

/**
 * Only the cookies of better-auth's answer are passed on to the browser, and a limit's
 * Retry-After and X-RateLimit-Reset (a locked two-factor account) [R51].
 */
function cookiesOf(headers: Headers) {
	const out = new Headers()
	for (const cookie of headers.getSetCookie()) out.append('Set-Cookie', cookie)
	for (const name of ['Retry-After', 'X-RateLimit-Reset']) {
		const value = headers.get(name)
		if (value !== null) out.set(name, value)
	}
	return out
}

export type Outcome<T = unknown> = { ok: true; headers: Headers; response: T } | { ok: false; status: number; code: string; message: string; headers: Headers }

/** better-auth's answer as a value: the cookies it set (also on failure: it may expire one) and its body. */
export async function outcome<T>(call: () => Promise<{ headers: Headers; response: T }>): Promise<Outcome<T>> {
	try {
		const { headers, response } = await call()
		return { ok: true, headers: cookiesOf(headers), response }
	} catch (error) {
		if (!(error instanceof APIError)) throw error
		return {
			ok: false,
			status: error.statusCode,
			code: String(error.body?.code ?? 'UNKNOWN'),
			message: String(error.body?.message ?? ''),
			headers: cookiesOf(new Headers(error.headers ?? undefined)),
		}
	}
}

/**
 * A password sign-in. `response.twoFactorRedirect` means no session exists yet: better-auth
 * set its short-lived two_factor cookie and waits for a code (app/auth/two-factor.server.ts).
 */
export async function signInWithEmail(input: { email: string; password: string; request: Request }) {
	const result = await outcome(() =>
		getAuth().api.signInEmail({
			body: { email: input.email, password: input.password },
			headers: input.request.headers,
			returnHeaders: true,
		}),
	)
	if (!result.ok) return result
	const twoFactorRedirect = (result.response as { twoFactorRedirect?: unknown }).twoFactorRedirect === true
	return { ...result, twoFactorRedirect }
}

/** Registers a Customer account (role `user`; nothing privileged is accepted) and signs it in. */
export function signUpWithEmail(input: { name: string; email: string; password: string; request: Request }) {
	return outcome(() =>
		getAuth().api.signUpEmail({
			body: { name: input.name, email: input.email, password: input.password },
			headers: input.request.headers,
			returnHeaders: true,
		}),
	)
}

export function signOut(request: Request) {
	return outcome(() => getAuth().api.signOut({ headers: request.headers, returnHeaders: true }))
}

/**
 * Changes the signed-in user's password [R26]. better-auth checks the current one,
 * the account rules check the new one's strength, and every other session of the user
 * ends (ASVS 7.4.3); this browser gets a fresh session cookie.
 */
export function changePassword(input: { currentPassword: string; newPassword: string; request: Request }) {
	return outcome(() =>
		getAuth().api.changePassword({
			body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
			headers: input.request.headers,
			returnHeaders: true,
		}),
	)
}

/** Asks better-auth for a reset mail; its answer is the same whether or not the address has an account. */
export function requestPasswordReset(input: { email: string; request: Request }) {
	return outcome(() =>
		getAuth().api.requestPasswordReset({ body: { email: input.email, redirectTo: '/reset-password' }, headers: input.request.headers, returnHeaders: true }),
	)
}

/** Sets a new password with a reset token: single use, 30 minutes; every session of the account ends. */
export function resetPassword(input: { token: string; newPassword: string; request: Request }) {
	return outcome(() =>
		getAuth().api.resetPassword({ body: { token: input.token, newPassword: input.newPassword }, headers: input.request.headers, returnHeaders: true }),
	)
}
