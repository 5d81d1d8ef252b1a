import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { getConfig } from '../config/env.server'

/**
 * Connection secrets (provider keys, event-verification secrets) encrypted at rest with
 * AES-256-GCM under a key derived from AUTH_SECRET with HKDF, bound to the Connection's
 * Store and handle (a ciphertext copied to another Connection does not open).
 * Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 *
 * Sealed with AUTH_SECRET; opened with AUTH_SECRET or, after a rotation, with a secret it
 * replaced (AUTH_SECRET_PREVIOUS) until the start-up check seals it anew [R14]
 * (app/security/stored-secrets.server.ts). GCM's tag tells a wrong secret from the right one.
 */
function keyFor(scope: string, secret: string) {
	return Buffer.from(hkdfSync('sha256', secret, 'store-connection-secrets', scope, 32))
}

/** The secrets that may open a sealed value: AUTH_SECRET first, then those it replaced. */
export function openingSecrets(config = getConfig()): string[] {
	return [config.authSecret, ...config.previousAuthSecrets]
}

export function sealSecret(value: unknown, scope: string, secret = getConfig().authSecret): string {
	const iv = randomBytes(12)
	const cipher = createCipheriv('aes-256-gcm', keyFor(scope, secret), iv)
	const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
	return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The value, and which secret opened it (0: AUTH_SECRET); null when none of `secrets` does. */
export function tryOpenSecret<T>(sealed: string, scope: string, secrets = openingSecrets()): { value: T; secretIndex: number } | null {
	const [version, iv, tag, body] = sealed.split('.')
	if (version !== 'v1' || !iv || !tag || !body) return null
	for (const [secretIndex, secret] of secrets.entries()) {
		let text: string
		try {
			const decipher = createDecipheriv('aes-256-gcm', keyFor(scope, secret), Buffer.from(iv, 'base64url'))
			decipher.setAuthTag(Buffer.from(tag, 'base64url'))
			text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
		} catch {
			continue // sealed with another secret
		}
		return { value: JSON.parse(text) as T, secretIndex }
	}
	return null
}

export function openSecret<T>(sealed: string, scope: string, secrets = openingSecrets()): T {
	const opened = tryOpenSecret<T>(sealed, scope, secrets)
	if (!opened) throw new Error('Unreadable connection secret: neither AUTH_SECRET nor AUTH_SECRET_PREVIOUS sealed it')
	return opened.value
}

export const connectionScope = (storeId: string, handle: string) => `${storeId}:${handle}`
