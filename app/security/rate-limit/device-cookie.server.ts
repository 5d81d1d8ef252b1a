import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../../config/env.server'

/**
 * OWASP's "device cookies" [R55] (docs/decisions/072-reset-links-and-guessing-budgets.md): a
 * browser that signed in to an account with its password gets a cookie of a random nonce,
 * signed with AUTH_SECRET together with that account. On that browser the account's password is guessed
 * against the browser's own budget, so a storm of guesses from elsewhere, which exhausts the
 * account's budget for browsers it has never seen, never refuses its owner there. The cookie
 * proves nothing else: it does not sign anyone in.
 */
export const DEVICE_COOKIE = 'storeDevice'
const MAX_AGE_S = 60 * 60 * 24 * 180
const VERSION = 'v1'

export type Device = { nonce: string }

const normal = (email: string) => email.trim().toLowerCase()

function mac(secret: string, email: string, nonce: string) {
	return createHmac('sha256', secret).update(`device-cookie:${VERSION}:${email}:${nonce}`).digest('base64url')
}

const COOKIE = new RegExp(`(?:^|;)\\s*${DEVICE_COOKIE}=([^;]*)`)

/**
 * The device of this browser for `email`: its cookie's nonce, when the cookie was issued for that
 * account (its signature covers the account and the nonce, with AUTH_SECRET or one it replaced
 * [R14]); otherwise null. The cookie does not carry the email: a shared computer's cookies do not
 * say who signed in on it.
 */
export function deviceFor(request: Request, email: string): Device | null {
	const raw = COOKIE.exec(request.headers.get('cookie') ?? '')?.[1]
	if (!raw || raw.length > 256) return null
	const [version, nonce, signature, extra] = raw.trim().split('.')
	if (version !== VERSION || !nonce || !signature || extra !== undefined) return null
	const given = Buffer.from(signature)
	const { authSecret, previousAuthSecrets } = getConfig()
	const signedBy = (secret: string) => {
		const expected = Buffer.from(mac(secret, normal(email), nonce))
		return expected.length === given.length && timingSafeEqual(expected, given)
	}
	return signedBy(authSecret) || previousAuthSecrets.some(signedBy) ? { nonce } : null
}

/** A new device cookie for `email` (HttpOnly, SameSite=Lax, Secure when the store is served over https). */
export function deviceCookie(email: string): string {
	const { authSecret, appUrl } = getConfig()
	const nonce = randomBytes(16).toString('base64url')
	const value = [VERSION, nonce, mac(authSecret, normal(email), nonce)].join('.')
	const secure = appUrl.startsWith('https:') ? '; Secure' : ''
	return `${DEVICE_COOKIE}=${value}; Max-Age=${MAX_AGE_S}; Path=/; HttpOnly${secure}; SameSite=Lax`
}
