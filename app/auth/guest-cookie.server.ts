import { randomUUID } from 'node:crypto'
import { createCookie } from 'react-router'
import { getConfig } from '../config/env.server'

/**
 * Spec 1: Guest Carts are tracked by a `guestId` cookie set on first visit.
 * Signed with AUTH_SECRET: a forged or altered value fails verification and is replaced.
 */
function guestCookie() {
	const config = getConfig()
	return createCookie('guestId', {
		secrets: [config.authSecret],
		httpOnly: true,
		sameSite: 'lax',
		secure: config.appUrl.startsWith('https:'),
		path: '/',
		maxAge: 60 * 60 * 24 * 365,
	})
}

const GUEST_ID = /^[0-9a-f-]{36}$/

/** The request's verified guest id, or null when absent, unsigned or forged. */
export function readGuestId(request: Request): Promise<string | null> {
	return guestIdFromCookieHeader(request.headers.get('cookie'))
}

/** The same, from a raw Cookie header (better-auth hooks see headers, not a Request). */
export async function guestIdFromCookieHeader(cookieHeader: string | null | undefined): Promise<string | null> {
	if (!cookieHeader) return null
	const value: unknown = await guestCookie().parse(cookieHeader)
	return typeof value === 'string' && GUEST_ID.test(value) ? value : null
}

export async function issueGuestId() {
	const guestId = randomUUID()
	return { guestId, setCookie: await guestCookie().serialize(guestId) }
}
