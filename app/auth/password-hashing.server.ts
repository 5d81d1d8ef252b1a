/**
 * docs/decisions/028-performance-budget.md: password hashing that cannot starve
 * the rest of the server. better-auth hashes with node:crypto's async scrypt on libuv's
 * thread pool (four threads), the same pool file reads, zlib and WebCrypto use: eight
 * sign-ins at once took every thread, and a static file or a page waited behind 32 MiB
 * scrypt jobs. Here at most HASHING_SLOTS derivations run at once (p-limit); the rest wait
 * in line, so the pool always has threads free and at most HASHING_SLOTS × 32 MiB is in use.
 *
 * Same parameters and stored format as better-auth (`<salt hex>:<key hex>`,
 * @better-auth/utils/password.node): hashes made before this change verify, and hashes made
 * here verify with better-auth's own code.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'
import pLimit from 'p-limit'

const SCRYPT = { N: 16384, r: 16, p: 1, dkLen: 64 } as const

/** Half of libuv's pool, and no more than the cores that can run them. */
export const HASHING_SLOTS = Math.max(1, Math.min(availableParallelism(), Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2)))

const slot = pLimit(HASHING_SLOTS)

function derive(password: string, salt: string): Promise<Buffer> {
	const { N, r, p, dkLen } = SCRYPT
	return slot(
		() =>
			new Promise<Buffer>((resolve, reject) =>
				scrypt(password.normalize('NFKC'), salt, dkLen, { N, r, p, maxmem: 128 * N * r * 2 }, (error, key) => (error ? reject(error) : resolve(key))),
			),
	)
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16).toString('hex')
	return `${salt}:${(await derive(password, salt)).toString('hex')}`
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
	const [salt, key] = hash.split(':')
	if (!salt || !key || !/^[0-9a-f]+$/i.test(key)) return false
	const derived = await derive(password, salt)
	const stored = Buffer.from(key, 'hex')
	return derived.length === stored.length && timingSafeEqual(derived, stored)
}

/** How many derivations run and wait right now (for tests). */
export function hashingLoad() {
	return { running: slot.activeCount, waiting: slot.pendingCount }
}
