import { getAuth } from './auth.server'
import { outcome } from './credentials.server'

/**
 * The pages' side of two-factor sign-in: each call goes through `auth.api.*`
 * with the browser's headers, and hands back better-auth's cookies for the page to forward.
 * Nothing here logs or stores a secret, a code or a backup code.
 */

export { TWO_FACTOR_PATH } from './two-factor-paths'
/** `/sign-in?error=` after the challenge ended (expired, forged, or too many wrong codes). */
export const TWO_FACTOR_RESTART = 'two_factor_restart'
export const TWO_FACTOR_RESTART_MESSAGE = 'Your sign-in code step has ended (too many wrong codes, or it expired). Please sign in again.'

/** better-auth answers these when the challenge itself is gone: the user starts over. */
const CHALLENGE_OVER = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'])
/** …and this while the account is locked after many failures (across challenges). */
const LOCKED = 'ACCOUNT_TEMPORARILY_LOCKED'

async function challengeCookie() {
	return (await getAuth().$context).createAuthCookie('two_factor')
}

/** Whether the request carries better-auth's two_factor cookie (its signature is checked on use). */
export async function hasTwoFactorChallenge(request: Request): Promise<boolean> {
	const { name } = await challengeCookie()
	const cookies = request.headers.get('cookie') ?? ''
	return cookies.split(';').some((pair) => {
		const [key, ...value] = pair.trim().split('=')
		return key === name && value.join('=').length > 0
	})
}

/**
 * A Set-Cookie that removes the two_factor cookie: better-auth spends the challenge in the
 * database, but its own expiry of the cookie does not travel with an error thrown to auth.api.
 */
export async function clearedChallengeCookie(): Promise<string> {
	const { name, attributes } = await challengeCookie()
	const parts = [`${name}=`, 'Max-Age=0', `Path=${attributes.path ?? '/'}`, 'HttpOnly', `SameSite=${attributes.sameSite ?? 'Lax'}`]
	if (attributes.secure) parts.push('Secure')
	return parts.join('; ')
}

export type CodeCheck = { ok: true; headers: Headers; response: unknown } | { ok: false; reason: 'wrong-code' | 'restart' | 'locked'; headers: Headers }

/** The second step of a password sign-in: a TOTP code or a backup code against the challenge cookie. */
export async function verifySignInCode(input: { method: 'totp' | 'backup'; code: string; request: Request }): Promise<CodeCheck> {
	const auth = getAuth()
	const result =
		input.method === 'totp'
			? await outcome(() => auth.api.verifyTOTP({ body: { code: input.code }, headers: input.request.headers, returnHeaders: true }))
			: await outcome(() => auth.api.verifyBackupCode({ body: { code: input.code }, headers: input.request.headers, returnHeaders: true }))
	if (result.ok) return { ok: true, headers: result.headers, response: result.response }
	if (CHALLENGE_OVER.has(result.code)) return { ok: false, reason: 'restart', headers: result.headers }
	if (result.code === LOCKED) return { ok: false, reason: 'locked', headers: result.headers }
	return { ok: false, reason: 'wrong-code', headers: result.headers }
}

/**
 * Enrolment, step one (password required): a new secret and backup codes, shown once. The
 * factor does not count until `confirmEnrolment` sees a code made from that secret.
 */
export async function startEnrolment(input: { password: string; issuer: string; request: Request }) {
	const result = await outcome(() =>
		getAuth().api.enableTwoFactor({
			body: { password: input.password, issuer: input.issuer },
			headers: input.request.headers,
			returnHeaders: true,
		}),
	)
	if (!result.ok) return result
	const { totpURI, backupCodes } = result.response as { totpURI?: string; backupCodes?: string[] }
	if (!totpURI || !backupCodes) throw new Error('better-auth answered an enrolment without a TOTP URI')
	const secret = new URL(totpURI).searchParams.get('secret') ?? ''
	return { ok: true as const, headers: result.headers, totpURI, secret, backupCodes }
}

/** Enrolment, step two: a code from the app turns the factor on (and rotates the session). */
export function confirmEnrolment(input: { code: string; request: Request }) {
	return outcome(() => getAuth().api.verifyTOTP({ body: { code: input.code }, headers: input.request.headers, returnHeaders: true }))
}

/** Turns the factor off (password required); refused for an admin while the Store requires it. */
export function disableTwoFactor(input: { password: string; request: Request }) {
	return outcome(() => getAuth().api.disableTwoFactor({ body: { password: input.password }, headers: input.request.headers, returnHeaders: true }))
}
