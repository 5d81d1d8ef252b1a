import { createHmac } from 'node:crypto'

/**
 * RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as an authenticator app computes it from the
 * otpauth:// URI the store shows at enrolment. Written here so the tests check better-auth
 * against the standard rather than against its own helper.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Decode(input: string): Buffer {
	const clean = input.replace(/=+$/, '').toUpperCase()
	let bits = 0
	let value = 0
	const out: number[] = []
	for (const char of clean) {
		const index = ALPHABET.indexOf(char)
		if (index < 0) throw new Error(`not base32: ${char}`)
		value = (value << 5) | index
		bits += 5
		if (bits >= 8) {
			out.push((value >>> (bits - 8)) & 0xff)
			bits -= 8
		}
	}
	return Buffer.from(out)
}

export function hotp(key: Buffer, counter: number, digits = 6): string {
	const message = Buffer.alloc(8)
	message.writeBigUInt64BE(BigInt(counter))
	const mac = createHmac('sha1', key).update(message).digest()
	const offset = mac[mac.length - 1]! & 0x0f
	const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits
	return String(code).padStart(digits, '0')
}

/** The secret (base32) of an otpauth:// URI. */
export function secretOf(totpURI: string): string {
	const secret = new URL(totpURI).searchParams.get('secret')
	if (!secret) throw new Error('no secret in the otpauth URI')
	return secret
}

/** The code an authenticator app shows now for a base32 secret. */
export function totpNow(base32Secret: string, at = Date.now()): string {
	return hotp(base32Decode(base32Secret), Math.floor(at / 30_000))
}

/** A six-digit code that no window better-auth accepts (now ±1 step) would produce. */
export function wrongTotp(base32Secret: string, at = Date.now()): string {
	const step = Math.floor(at / 30_000)
	const key = base32Decode(base32Secret)
	const valid = new Set([-2, -1, 0, 1, 2].map((d) => hotp(key, step + d)))
	for (let n = 123456; ; n = (n + 111111) % 1_000_000) {
		const candidate = String(n).padStart(6, '0')
		if (!valid.has(candidate)) return candidate
	}
}

const spent = new Map<string, Set<string>>()

/**
 * A code valid right now (better-auth accepts the current step and one either side) that this
 * test run has not used yet: the store accepts each code once (ASVS 6.5.1). Waits for the next
 * 30 s step only when every code it may hand out is spent. The code is marked as used.
 */
export async function unusedTotp(base32Secret: string): Promise<string> {
	const used = spent.get(base32Secret) ?? new Set<string>()
	spent.set(base32Secret, used)
	for (;;) {
		const step = Math.floor(Date.now() / 30_000)
		const key = base32Decode(base32Secret)
		// A code stays valid until the end of the step after its own, so the current and the next
		// step's codes have 30 s or more to live; the previous step's only in the first half of this
		// one (15 s or more left), so a code is never handed out with seconds to spare before a slow
		// sign-in uses it, and a test waits for the next step less often.
		const offsets = Date.now() % 30_000 < 15_000 ? [0, 1, -1] : [0, 1]
		for (const offset of offsets) {
			const code = hotp(key, step + offset)
			if (!used.has(code)) {
				used.add(code)
				return code
			}
		}
		await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 200))
	}
}
