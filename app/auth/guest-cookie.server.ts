import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createCookie } from 'react-router'
import { getConfig } from '../config/env.server'

/**
 * [R2] Guest Carts are tracked by a `guestId` cookie set on first visit.
 * Signed with AUTH_SECRET: a forged or altered value fails verification and is replaced.
 */
const GUEST_MAX_AGE_S = 60 * 60 * 24 * 365

let cached: { secret: string; cookie: ReturnType<typeof createCookie> } | undefined

/** Built once per secret (it was rebuilt on every request). */
function guestCookie() {
	const config = getConfig()
	if (cached?.secret === config.authSecret) return cached.cookie
	const cookie = createCookie('guestId', {
		secrets: [config.authSecret],
		httpOnly: true,
		sameSite: 'lax',
		secure: config.appUrl.startsWith('https:'),
		path: '/',
		maxAge: GUEST_MAX_AGE_S,
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
 * with node:crypto in one synchronous step (React Router's own parse goes through
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

/**
 * A new guest id and its Set-Cookie header, written with node:crypto in one synchronous step:
 * exactly what `guestCookie().serialize(guestId)` writes (a test holds the two equal), without
 * React Router's WebCrypto round trip on every first visit. The id is ASCII, so the JSON's
 * base64 needs no unescaping.
 */
export function issueGuestId() {
	const guestId = randomUUID()
	const { authSecret, appUrl } = getConfig()
	const data = Buffer.from(JSON.stringify(guestId)).toString('base64')
	const mac = createHmac('sha256', authSecret).update(data).digest('base64').replace(/=+$/, '')
	const secure = appUrl.startsWith('https:') ? '; Secure' : ''
	return { guestId, setCookie: `guestId=${encodeURIComponent(`${data}.${mac}`)}; Max-Age=${GUEST_MAX_AGE_S}; Path=/; HttpOnly${secure}; SameSite=Lax` }
}

/** React Router's own serialisation of a guest id: the reference `issueGuestId` must equal. */
export function serializeWithReactRouter(guestId: string) {
	return guestCookie().serialize(guestId)
}
