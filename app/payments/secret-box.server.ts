import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { getConfig } from '../config/env.server'

/**
 * Connection secrets (provider keys, event-verification secrets) encrypted at rest with
 * AES-256-GCM under a key derived from AUTH_SECRET with HKDF, bound to the Connection's
 * Store and handle (a ciphertext copied to another Connection does not open).
 * Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
function keyFor(scope: string, secret: string) {
	return Buffer.from(hkdfSync('sha256', secret, 'store-connection-secrets', scope, 32))
}

export function sealSecret(value: unknown, scope: string, secret = getConfig().authSecret): string {
	const iv = randomBytes(12)
	const cipher = createCipheriv('aes-256-gcm', keyFor(scope, secret), iv)
	const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
	return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

export function openSecret<T>(sealed: string, scope: string, secret = getConfig().authSecret): T {
	const [version, iv, tag, body] = sealed.split('.')
	if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unreadable connection secret')
	const decipher = createDecipheriv('aes-256-gcm', keyFor(scope, secret), Buffer.from(iv, 'base64url'))
	decipher.setAuthTag(Buffer.from(tag, 'base64url'))
	const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
	return JSON.parse(text) as T
}

export const connectionScope = (storeId: string, handle: string) => `${storeId}:${handle}`
