import { createHmac, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../config/env.server'
import type { Db } from '../data/db.server'

/** Unsubscribe links stay valid this long (a year of newsletters), then a fresh one is needed. */
export const UNSUBSCRIBE_TOKEN_DAYS = 365

/**
 * Newsletter (spec 8: subscribe and unsubscribe are Sensitive). Subscribing is idempotent
 * and answers the same whether or not the address was already on the list; unsubscribing
 * needs no account, only a signed, expiring link for that Store and address.
 */
export function newsletterRepository(db: Db, storeId: string) {
	return {
		async subscribe(email: string) {
			await db.newsletterSubscriber.upsert({
				where: { storeId_email: { storeId, email } },
				create: { storeId, email },
				update: { unsubscribedAt: null },
			})
		},

		async unsubscribe(email: string) {
			await db.newsletterSubscriber.updateMany({ where: { storeId, email, unsubscribedAt: null }, data: { unsubscribedAt: new Date() } })
		},
	}
}

function sign(payload: string, secret: string) {
	return createHmac('sha256', secret).update(`newsletter-unsubscribe:${payload}`).digest('base64url')
}

export function unsubscribeToken(
	{ storeId, email, now = Date.now() }: { storeId: string; email: string; now?: number },
	secret = getConfig().authSecret,
) {
	const expires = Math.floor(now / 1000) + UNSUBSCRIBE_TOKEN_DAYS * 86_400
	const payload = Buffer.from(JSON.stringify({ s: storeId, e: email, x: expires })).toString('base64url')
	return `${payload}.${sign(payload, secret)}`
}

export type TokenVerdict = { ok: true; email: string } | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'other-store' }

/** Checks the signature in constant time, then the expiry and the Store. */
export function readUnsubscribeToken(token: string, storeId: string, { now = Date.now(), secret = getConfig().authSecret } = {}): TokenVerdict {
	if (token.length > 1024) return { ok: false, reason: 'malformed' }
	const [payload, signature, extra] = token.split('.')
	if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed' }
	const expected = Buffer.from(sign(payload, secret))
	const given = Buffer.from(signature)
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' }
	let body: { s?: unknown; e?: unknown; x?: unknown }
	try {
		body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
	} catch {
		return { ok: false, reason: 'malformed' }
	}
	if (typeof body.e !== 'string' || typeof body.s !== 'string' || typeof body.x !== 'number') return { ok: false, reason: 'malformed' }
	if (body.x * 1000 < now) return { ok: false, reason: 'expired' }
	if (body.s !== storeId) return { ok: false, reason: 'other-store' }
	return { ok: true, email: body.e }
}
