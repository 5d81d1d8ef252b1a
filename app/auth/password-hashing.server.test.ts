import * as betterAuthPassword from '@better-auth/utils/password'
import { describe, expect, it } from 'vitest'
import { HASHING_SLOTS, hashingLoad, hashPassword, verifyPassword } from './password-hashing.server'

// hashing moved to a worker pool must keep better-auth's scrypt and stored format.
describe("password hashing off most of libuv's pool", () => {
	it('verifies a hash better-auth made before the change (existing accounts keep signing in)', async () => {
		const old = await betterAuthPassword.hashPassword('an old Passphrase 1')
		expect(await verifyPassword({ hash: old, password: 'an old Passphrase 1' })).toBe(true)
		expect(await verifyPassword({ hash: old, password: 'an old Passphrase 2' })).toBe(false)
	})

	it('makes hashes better-auth itself verifies, in its format <salt hex>:<key hex>', async () => {
		const hash = await hashPassword('a new Passphrase 1')
		expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
		expect(await betterAuthPassword.verifyPassword(hash, 'a new Passphrase 1')).toBe(true)
		expect(await betterAuthPassword.verifyPassword(hash, 'a new Passphrase 2')).toBe(false)
	})

	it('normalises like better-auth (NFKC): a composed and a decomposed é are one password', async () => {
		const hash = await hashPassword('caf\u00e9 au lait 12')
		expect(await verifyPassword({ hash, password: 'cafe\u0301 au lait 12' })).toBe(true)
	})

	it('salts every hash', async () => {
		const [a, b] = await Promise.all([hashPassword('same Passphrase'), hashPassword('same Passphrase')])
		expect(a).not.toBe(b)
	})

	it('answers false, never throws, for a malformed stored hash', async () => {
		for (const hash of ['', 'nocolon', 'abc:', ':abc', 'abcd:not-hex', 'abcd:abcd']) {
			expect(await verifyPassword({ hash, password: 'anything' })).toBe(false)
		}
	})

	it('runs at most HASHING_SLOTS derivations at once, leaving libuv threads free; the rest wait in line', async () => {
		expect(HASHING_SLOTS).toBeGreaterThanOrEqual(1)
		expect(HASHING_SLOTS).toBeLessThanOrEqual(2)
		const pending = Array.from({ length: 8 }, (_, i) => hashPassword(`Passphrase number ${i}`))
		expect(hashingLoad()).toEqual({ running: HASHING_SLOTS, waiting: 8 - HASHING_SLOTS })
		const hashes = await Promise.all(pending)
		expect(hashingLoad()).toEqual({ running: 0, waiting: 0 })
		const checks = await Promise.all(hashes.map((hash, i) => verifyPassword({ hash, password: `Passphrase number ${i}` })))
		expect(checks).toEqual(Array(8).fill(true))
	})
})
