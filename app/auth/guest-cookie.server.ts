import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createCookie } from 'react-router'
import { getConfig } from '../config/env.server'

/**
 * Spec 1: Guest Carts are tracked by a `guestId` cookie set on first visit.
 * Signed with AUTH_SECRET: a forged or altered value fails verification and is replaced.
 */
let cached: { secret: string; cookie: ReturnType<typeof createCookie> } | undefined

/** Built once per secret (issue 11: it was rebuilt on every request). */
function guestCookie() {
	const config = getConfig()
	if (cached?.secret === config.authSecret) return cached.cookie
	const cookie = createCookie('guestId', {
		secrets: [config.authSecret],
		httpOnly: true,
		sameSite: 'lax',
		secure: config.appUrl.startsWith('https:'),
		path: '/',
		maxAge: 60 * 60 * 24 * 365,
	})
	cached = { secret: config.authSecret, cookie }
	return cookie
}

const GUEST_ID = /^[0-9a-f-]{36}$/

/** The request's verified guest id, or null when absent, unsigned or forged. */
export function readGuestId(request: Request): Promise<string | null> {
	return guestIdFromCookieHeader(request.headers.get('cookie'))
}

const GUEST_COOKIE = /(?:^|;)\s*guestId=([^;]*)/

/**
 * The same, from a raw Cookie header (better-auth hooks see headers, not a Request).
 *
 * Reads what `guestCookie().serialize` writes — React Router's signed cookie format,
 * `base64(JSON) + "." + base64(HMAC-SHA256(secret, that))` without padding, URI-encoded —
 * with node:crypto in one synchronous step (issue 11: React Router's own parse goes through
 * WebCrypto, importing the key and verifying asynchronously on every page view). A value
 * that is not exactly a signed guest id is no guest id.
 */
export async function guestIdFromCookieHeader(cookieHeader: string | null | undefined): Promise<string | null> {
	const raw = cookieHeader ? GUEST_COOKIE.exec(cookieHeader)?.[1] : undefined
	if (!raw) return null
	let signed: string
	try {
		signed = decodeURIComponent(raw.trim())
	} catch {
		return null
	}
	const dot = signed.lastIndexOf('.')
	if (dot <= 0) return null
	const data = signed.slice(0, dot)
	const mac = Buffer.from(signed.slice(dot + 1))
	const { authSecret, previousAuthSecrets } = getConfig()
	// AUTH_SECRET first; during a rotation the secrets it replaced still read a guest's cookie [R14].
	if (!signedWith(data, mac, authSecret) && !previousAuthSecrets.some((secret) => signedWith(data, mac, secret))) return null
	try {
		const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'))
		return typeof value === 'string' && GUEST_ID.test(value) ? value : null
	} catch {
		return null
	}
}

function signedWith(data: string, mac: Buffer, secret: string) {
	const expected = Buffer.from(createHmac('sha256', secret).update(data).digest('base64').replace(/=+$/, ''))
	return mac.length === expected.length && timingSafeEqual(mac, expected)
}

export async function issueGuestId() {
	const guestId = randomUUID()
	return { guestId, setCookie: await guestCookie().serialize(guestId) }
}
