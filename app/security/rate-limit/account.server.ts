import { createHash } from 'node:crypto'
import { data } from 'react-router'
import { getConfig } from '../../config/env.server'
import { formFailure } from '../form.server'
import { CLIENT_IP_HEADER } from '../http.server'
import { getStoreLimiter, rateLimitHeaders, tooManyMessage, UNAVAILABLE } from './rate-limit.server'

export type SignInRefusal = { status: 429 | 503; code: string; headers: Record<string, string>; message: string }

export type SignInAttempt = { refused: SignInRefusal } | { refused: null; succeeded(): Promise<void> }

/**
 * One account and one client (the address Express resolved, stamped on the request), hashed:
 * neither an email nor an address is kept as a key in memory or in Redis.
 */
function accountKey(email: string, request: Request) {
	const client = request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'
	return createHash('sha256').update(`${email.trim().toLowerCase()}\n${client}`).digest('base64url')
}

/**
 * Sign-in failures are counted per account AND client [R53] (docs/decisions/031-sign-in-lockout.md):
 * a client that keeps failing on an account is refused for the window (RATE_LIMIT_ACCOUNT,
 * default 10 per 15 minutes), and its failures never refuse another client's correct password,
 * so nobody can lock the Store Admin out. Each attempt is counted before the password is
 * checked (parallel guesses cannot slip past the count); `succeeded` clears the count again,
 * so only failures stay counted. The per-address Authentication class bounds any one client.
 */
export async function countSignInAttempt(email: string, request: Request, limiter = getStoreLimiter(getConfig())): Promise<SignInAttempt> {
	const key = accountKey(email, request)
	const decision = await limiter.check(key, 'account')
	if (decision === 'unavailable') return { refused: { status: 503, code: 'TEMPORARILY_UNAVAILABLE', ...UNAVAILABLE } }
	if (decision && !decision.success) {
		return { refused: { status: 429, code: 'TOO_MANY_REQUESTS', headers: rateLimitHeaders(decision), message: tooManyMessage(decision) } }
	}
	return { refused: null, succeeded: () => limiter.reset(key, 'account') }
}

/** The sign-in form's answer to a refused attempt: beside the form, with its own headers. */
export const refusedSignInForm = (refused: SignInRefusal) => data(formFailure({}, refused.message), { status: refused.status, headers: refused.headers })
