import { createHash, createHmac } from 'node:crypto'
import { getConfig } from '../config/env.server'

/**
 * The guest's confirmation link `/orders/<token>`: 256 bits, derived from the Order id with
 * AUTH_SECRET, so a double-submitted checkout can lead to the same link without the token
 * ever being stored. The database keeps only its sha256 for lookup, so a link keeps working
 * after AUTH_SECRET is rotated (the lookup never needs the secret that derived it).
 */
export function orderToken(orderId: string, secret = getConfig().authSecret) {
	return createHmac('sha256', secret).update(`order-confirmation:${orderId}`).digest('base64url')
}

export function hashOrderToken(token: string) {
	return createHash('sha256').update(token).digest('hex')
}

/**
 * The link of an Order already placed (a replayed checkout): derived with whichever configured
 * secret made its stored hash, so after AUTH_SECRET is rotated the shopper is still sent to the
 * link that opens their Order, not to one derived with the new secret that opens nothing.
 */
export function existingOrderToken(
	orderId: string,
	tokenHash: string,
	{ authSecret, previousAuthSecrets }: { authSecret: string; previousAuthSecrets: string[] } = getConfig(),
) {
	for (const secret of [authSecret, ...previousAuthSecrets]) {
		const token = orderToken(orderId, secret)
		if (hashOrderToken(token) === tokenHash) return token
	}
	return orderToken(orderId, authSecret)
}

/** A well-formed token (43 base64url characters); anything else is not looked up at all. */
export const ORDER_TOKEN = /^[A-Za-z0-9_-]{43}$/
