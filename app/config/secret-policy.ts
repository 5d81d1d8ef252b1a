/**
 * [R10] the production start-up check for AUTH_SECRET.
 *
 * A secret is refused when it is missing, shorter than 32 characters, a known
 * default, or fails the entropy check below. better-auth's own check is not
 * relied on: it accepts its own 38-character default outside production and
 * skips validation entirely under NODE_ENV=test.
 *
 * Entropy check (docs/decisions/003-auth-secret-policy.md), every part must hold:
 * - estimated strength >= 128 bits, estimated as length x the Shannon entropy per
 *   character of the secret's own character frequencies (32 random bytes in
 *   base64 score about 210; "abab..." scores 1 bit a character);
 * - the secret is not a unit repeated (any period up to half its length);
 * - fewer than half of neighbouring characters are equal or consecutive
 *   ("abcdef...", "aaaa...", "987654...").
 *
 * Guessability check (docs/decisions/009-strength-rules.md), after the above:
 * - zxcvbn-ts (common passwords, keyboard graphs, English words) estimates at least
 *   10^24 guesses (~80 bits); keyboard runs such as "qwertyuiop…" score far lower;
 * - less than half of the secret reads as dictionary words ("my-super-secret-…").
 */
import { createHash } from 'node:crypto'
import { estimate, readableShare } from '../rules/strength.server'

export const MIN_AUTH_SECRET_LENGTH = 32
export const MIN_AUTH_SECRET_BITS = 128
export const MIN_AUTH_SECRET_GUESSES_LOG10 = 24
export const MAX_AUTH_SECRET_READABLE_SHARE = 0.5

/** Used in development and test when AUTH_SECRET is unset; production rejects it by name. */
export const DEV_FALLBACK_AUTH_SECRET = 'local-dev-only-fallback-auth-secret-never-use-in-production'

/**
 * Values a secret must never be. `.env.example` values are included on purpose:
 * app/config/secret-policy.test.ts fails if .env.example gains one that is missing here.
 */
const KNOWN_DEFAULTS: ReadonlyArray<readonly [string, string]> = [
	[DEV_FALLBACK_AUTH_SECRET, 'the local development fallback secret'],
	['better-auth-secret-12345678901234567890', "better-auth's built-in default"],
	['<AUTH_SECRET_VALUE>', 'the placeholder in the spec'],
	['replace-me-with-the-output-of-openssl-rand-base64-32', 'the placeholder in .env.example'],
	['changeme-changeme-changeme-changeme', 'a well-known example value'],
	['your-secret-key-here-at-least-32-characters', 'a well-known example value'],
]

export type SecretRule = 'missing' | 'too-short' | 'known-default' | 'dev-fallback' | 'low-entropy' | 'guessable'

export type SecretVerdict = { ok: true } | { ok: false; rule: SecretRule; reason: string }

export function checkAuthSecret(secret: string | undefined): SecretVerdict {
	if (secret === undefined || secret.trim() === '') {
		return { ok: false, rule: 'missing', reason: 'AUTH_SECRET is not set' }
	}
	if (secret === DEV_FALLBACK_AUTH_SECRET) {
		return {
			ok: false,
			rule: 'dev-fallback',
			reason: 'AUTH_SECRET is the local development fallback secret, which is never valid in production',
		}
	}
	const known = KNOWN_DEFAULTS.find(([value]) => value.toLowerCase() === secret.trim().toLowerCase())
	if (known) {
		return {
			ok: false,
			rule: 'known-default',
			reason: `AUTH_SECRET is ${known[1]}, which is published`,
		}
	}
	if (secret.length < MIN_AUTH_SECRET_LENGTH) {
		return {
			ok: false,
			rule: 'too-short',
			reason: `AUTH_SECRET is shorter than ${MIN_AUTH_SECRET_LENGTH} characters`,
		}
	}
	const weakness = entropyWeakness(secret)
	if (weakness) {
		return {
			ok: false,
			rule: 'low-entropy',
			reason: `AUTH_SECRET fails the entropy check (${weakness})`,
		}
	}
	const guessable = guessability(secret)
	if (guessable) {
		return { ok: false, rule: 'guessable', reason: `AUTH_SECRET is guessable (${guessable})` }
	}
	return { ok: true }
}

// The server entry and the app build both check AUTH_SECRET at start: the estimate (and its
// dictionaries) is done once per process and secret, remembered by the secret's digest only.
const checked = globalThis as unknown as { storeGuessability?: Map<string, string | null> }

/** Why a secret that passed the entropy check still looks chosen by a person, or null. */
export function guessability(secret: string): string | null {
	checked.storeGuessability ??= new Map()
	const digest = createHash('sha256').update(secret).digest('base64')
	if (!checked.storeGuessability.has(digest)) checked.storeGuessability.set(digest, estimateGuessability(secret))
	return checked.storeGuessability.get(digest) ?? null
}

function estimateGuessability(secret: string): string | null {
	if (estimate(secret).guessesLog10 < MIN_AUTH_SECRET_GUESSES_LOG10) {
		return 'a strength estimator finds keyboard patterns, common passwords or words in it'
	}
	if (readableShare(secret) >= MAX_AUTH_SECRET_READABLE_SHARE) {
		return 'half or more of it reads as dictionary words'
	}
	return null
}

/** Why a secret of sufficient length still looks guessable, or null. */
export function entropyWeakness(secret: string): string | null {
	if (repeatingPeriod(secret) !== null) return 'it repeats a shorter pattern'
	if (runShare(secret) >= 0.5) return 'it is mostly runs of equal or consecutive characters'
	if (estimatedBits(secret) < MIN_AUTH_SECRET_BITS) {
		return `estimated strength is below ${MIN_AUTH_SECRET_BITS} bits`
	}
	return null
}

export function estimatedBits(secret: string): number {
	const counts = new Map<string, number>()
	for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1)
	const length = [...secret].length
	let bitsPerChar = 0
	for (const count of counts.values()) {
		const p = count / length
		bitsPerChar -= p * Math.log2(p)
	}
	return bitsPerChar * length
}

function repeatingPeriod(secret: string): number | null {
	for (let period = 1; period <= secret.length / 2; period++) {
		let repeats = true
		for (let i = period; i < secret.length && repeats; i++) {
			repeats = secret[i] === secret[i - period]
		}
		if (repeats) return period
	}
	return null
}

function runShare(secret: string): number {
	let runs = 0
	for (let i = 1; i < secret.length; i++) {
		const step = secret.charCodeAt(i) - secret.charCodeAt(i - 1)
		if (Math.abs(step) <= 1) runs++
	}
	return runs / (secret.length - 1)
}

/** A secret and the version number that names it inside what it sealed. */
export type VersionedSecret = { version: number; value: string }

/**
 * AUTH_SECRET first (it signs and seals everything new), then each secret it replaced
 * (AUTH_SECRET_PREVIOUS, read-only) [R14]. better-auth's `secrets` option takes this list and
 * writes the version into each ciphertext it makes. The version is derived from the secret
 * itself (28 bits of a hash; nothing an attacker can use), so an operator rotates by moving
 * the old value to AUTH_SECRET_PREVIOUS and never numbers anything.
 */
export function authSecretVersions(config: { authSecret: string; previousAuthSecrets: readonly string[] }): VersionedSecret[] {
	return [config.authSecret, ...config.previousAuthSecrets].map((value) => ({
		version: Number.parseInt(createHash('sha256').update(`store-secret-version:${value}`).digest('hex').slice(0, 7), 16),
		value,
	}))
}
