import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEV_FALLBACK_AUTH_SECRET, MIN_AUTH_SECRET_BITS, authSecretVersions, checkAuthSecret, estimatedBits } from './secret-policy'

function ruleOf(secret: string | undefined) {
	const verdict = checkAuthSecret(secret)
	return verdict.ok ? 'ok' : verdict.rule
}

describe('AUTH_SECRET policy [R10] (rules 1-2)', () => {
	it('rejects a missing or blank secret', () => {
		expect(ruleOf(undefined)).toBe('missing')
		expect(ruleOf('')).toBe('missing')
		expect(ruleOf('   ')).toBe('missing')
	})

	it('rejects a secret under 32 characters', () => {
		expect(ruleOf(randomBytes(16).toString('base64').slice(0, 31))).toBe('too-short')
	})

	it('rejects the local development fallback by name', () => {
		const verdict = checkAuthSecret(DEV_FALLBACK_AUTH_SECRET)
		expect(verdict).toMatchObject({ ok: false, rule: 'dev-fallback' })
		expect(!verdict.ok && verdict.reason).toContain('development fallback')
	})

	it("rejects better-auth's built-in default, which a length check alone accepts", () => {
		const builtIn = 'better-auth-secret-12345678901234567890'
		expect(builtIn.length).toBeGreaterThanOrEqual(32)
		expect(ruleOf(builtIn)).toBe('known-default')
	})

	it('rejects the placeholder the spec publishes', () => {
		expect(ruleOf('<AUTH_SECRET_VALUE>')).toBe('known-default')
	})

	it('rejects every value in .env.example', () => {
		const values = readFileSync('.env.example', 'utf8')
			.split('\n')
			.filter((line) => /^[A-Z_]+=/.test(line))
			.map((line) => line.slice(line.indexOf('=') + 1))
			.filter((value) => value !== '')
		expect(values.length).toBeGreaterThan(3)
		for (const value of values) expect(ruleOf(value), value).not.toBe('ok')
		const example = values.find((value) => value.startsWith('replace-me'))
		expect(ruleOf(example)).toBe('known-default')
	})

	it('rejects repeated characters and short repeating patterns', () => {
		expect(ruleOf('a'.repeat(64))).toBe('low-entropy')
		expect(ruleOf('ab'.repeat(32))).toBe('low-entropy')
		expect(ruleOf('Tr0ub4dor&3'.repeat(4))).toBe('low-entropy')
		// A long unit repeated once scores well on character frequency alone.
		const unit = randomBytes(24).toString('base64')
		expect(estimatedBits(unit + unit)).toBeGreaterThan(MIN_AUTH_SECRET_BITS)
		expect(ruleOf(unit + unit)).toBe('low-entropy')
	})

	it('rejects runs of consecutive characters', () => {
		expect(ruleOf('abcdefghijklmnopqrstuvwxyz0123456789')).toBe('low-entropy')
		expect(ruleOf('zyxwvutsrqponmlkjihgfedcba9876543210')).toBe('low-entropy')
	})

	it('rejects a long secret drawn from too few characters', () => {
		expect(ruleOf('0110100110010110011010011001011010010110')).toBe('low-entropy')
	})

	it.each([
		'qwertyuiopasdfghjklzxcvbnm123456',
		'my-super-secret-auth-key-for-the-store-2024',
		'correct-horse-battery-staple-and-more-words',
		'1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9',
	])('rejects the keyboard run or readable phrase %j as guessable', (secret) => {
		const verdict = checkAuthSecret(secret)
		expect(verdict).toMatchObject({ ok: false, rule: 'guessable' })
		expect(!verdict.ok && verdict.reason).not.toContain(secret)
	})

	it('refuses a run-together phrase by one rule or another', () => {
		expect(ruleOf('thisismysecretkeyforthestoreprod')).not.toBe('ok')
	})

	// The strength estimator costs tens of milliseconds a check: enough samples to catch
	// a rule that refuses random secrets, not thousands (docs/decisions/009 has the 12,000-sample run).
	it('accepts 32 random bytes in base64, every time', () => {
		for (let i = 0; i < 60; i++) {
			expect(ruleOf(randomBytes(32).toString('base64'))).toBe('ok')
		}
	})

	it('accepts 32 random bytes in hex and 32 random bytes in base64url', () => {
		for (let i = 0; i < 30; i++) {
			expect(ruleOf(randomBytes(32).toString('hex'))).toBe('ok')
			expect(ruleOf(randomBytes(32).toString('base64url'))).toBe('ok')
		}
	})

	it('never puts the secret in its reason', () => {
		for (const secret of ['x7#Kp2!vQ9', 'ab'.repeat(20), 'better-auth-secret-12345678901234567890']) {
			const verdict = checkAuthSecret(secret)
			expect(verdict.ok).toBe(false)
			expect(!verdict.ok && verdict.reason).not.toContain(secret)
		}
	})
})

describe('versions of AUTH_SECRET and the secrets it replaced [R14]', () => {
	it('puts AUTH_SECRET first, and names each secret by the same version at every start', () => {
		const [current, previous] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')]
		const versions = authSecretVersions({ authSecret: current, previousAuthSecrets: [previous] })
		expect(versions.map((v) => v.value)).toEqual([current, previous])
		expect(authSecretVersions({ authSecret: previous, previousAuthSecrets: [] })[0]?.version).toBe(versions[1]?.version)
		for (const { version } of versions) expect(Number.isInteger(version) && version >= 0).toBe(true)
		expect(versions[0]?.version).not.toBe(versions[1]?.version)
	})
})
