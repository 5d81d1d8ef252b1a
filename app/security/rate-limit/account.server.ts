import { createHash } from 'node:crypto'
import { data } from 'react-router'
import { type Config, getConfig } from '../../config/env.server'
import { managedSignInEnabled } from '../../config/operator-config'
import { formFailure } from '../form.server'
import { CLIENT_IP_HEADER } from '../http.server'
import { clientKey } from './client-key'
import { deviceCookie, deviceFor } from './device-cookie.server'
import type { Decision } from './limiter.server'
import { getStoreLimiter, rateLimitHeaders, retryAfterSeconds, type StoreLimiter, tooManyMessage, UNAVAILABLE } from './rate-limit.server'

export type SignInRefusal = { status: 429 | 503; code: string; headers: Record<string, string>; message: string }

/** `succeeded` answers the Set-Cookie header of this browser's device cookie for the account [R55]. */
export type SignInAttempt = { refused: SignInRefusal } | { refused: null; succeeded(): Promise<string> }

const normal = (email: string) => email.trim().toLowerCase()
/** Keys are hashed: neither an email nor an address is kept as a key in memory or in Redis. */
const hashed = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url')

const tooMany = (decision: Decision, message = tooManyMessage(decision)): { refused: SignInRefusal } => ({
	refused: { status: 429, code: 'TOO_MANY_REQUESTS', headers: rateLimitHeaders(decision), message },
})
const unavailable = (): { refused: SignInRefusal } => ({ refused: { status: 503, code: 'TEMPORARILY_UNAVAILABLE', ...UNAVAILABLE } })

function inWords(seconds: number) {
	if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`
	return `${Math.ceil(seconds / 60)} minutes`
}

/** What the owner of an account closed to new browsers is told: how long, and the ways in meanwhile. */
function newDevicesMessage(decision: Decision, config: Pick<Config, 'managedSignIn'>) {
	const managed = managedSignInEnabled({
		SVC_ADMIN_OAUTH_CLIENT_ID: config.managedSignIn.clientId,
		SVC_ADMIN_OAUTH_CLIENT_SECRET: config.managedSignIn.clientSecret,
	})
	return (
		'Too many wrong passwords were tried for this account from browsers it was never signed in from, ' +
		`so it takes no password from a new browser for now. Please wait ${inWords(retryAfterSeconds(decision.resetMs))}` +
		`, or sign in from a browser you have signed in with before${managed ? ', or use managed sign-in' : ''}.`
	)
}

/**
 * Password attempts are counted before the password is checked (parallel guesses cannot slip past
 * a count), and an attempt that succeeds is taken back, so the budgets count failures
 * (docs/decisions/031-sign-in-lockout.md, 072):
 * - from a browser that signed in to this account before (its device cookie [R55]): that
 *   browser's own budget (RATE_LIMIT_DEVICE), whatever happens elsewhere: the owner is never
 *   locked out of a browser they used;
 * - from any other browser: per account and client address (RATE_LIMIT_ACCOUNT [R53], so one
 *   client's failures never refuse another's), and per account across every address
 *   (RATE_LIMIT_ACCOUNT_NEW_DEVICES [R55]): a list of addresses buys a bounded number of guesses.
 * Client addresses count by IPv4 address or IPv6 /64 [R56]. A success clears the client's (or the
 * device's) count and gives back the account-wide one; it answers a fresh device cookie.
 */
export async function countSignInAttempt(
	email: string,
	request: Request,
	limiter: StoreLimiter = getStoreLimiter(getConfig()),
	config: Pick<Config, 'managedSignIn'> = getConfig(),
): Promise<SignInAttempt> {
	const device = deviceFor(request, email)
	if (device) {
		const key = hashed(normal(email), device.nonce)
		const decision = await limiter.check(key, 'device')
		if (decision === 'unavailable') return unavailable()
		if (decision && !decision.success) return tooMany(decision)
		return {
			refused: null,
			succeeded: async () => {
				await limiter.reset(key, 'device')
				return deviceCookie(email)
			},
		}
	}
	const fromClient = hashed(normal(email), clientKey(request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'))
	const perClient = await limiter.check(fromClient, 'account')
	if (perClient === 'unavailable') return unavailable()
	if (perClient && !perClient.success) return tooMany(perClient)
	const account = hashed(normal(email))
	const perAccount = await limiter.check(account, 'newDevices')
	if (perAccount === 'unavailable') return unavailable()
	if (perAccount && !perAccount.success) return tooMany(perAccount, newDevicesMessage(perAccount, config))
	return {
		refused: null,
		succeeded: async () => {
			await limiter.reset(fromClient, 'account')
			await limiter.refund(account, 'newDevices')
			return deviceCookie(email)
		},
	}
}

/** The sign-in form's answer to a refused attempt: beside the form, with its own headers. */
export const refusedSignInForm = (refused: SignInRefusal) => data(formFailure({}, refused.message), { status: refused.status, headers: refused.headers })
