/**
 * Issue 11.4, docs/decisions/028-performance-budget.md: password hashing that cannot starve
 * the rest of the server. better-auth's own hashing calls node:crypto's async scrypt, which
 * runs on libuv's four-thread pool — the pool file reads and other crypto wait behind. Here
 * each derivation runs in a small worker pool (piscina), one thread per core at a lower
 * scheduling priority, so a sign-in storm gets the spare CPU and pages keep theirs.
 *
 * Same parameters and stored format as better-auth (`<salt hex>:<key hex>`): hashes made
 * before this change verify, and hashes made here verify with better-auth's own code.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'

type Derive = { password: string; salt: string }

const WORKER = fileURLToPath(new URL('./password-worker.mjs', import.meta.url))

let pool: Piscina<Derive, string> | undefined

/**
 * One worker per core, at most four; started on demand, stopped after 30 s idle (an idle
 * store holds no worker). Each derivation needs 32 MiB (128·N·r) outside the JS heap; the
 * workers' own heaps hold only a task and its answer, so they are kept small.
 */
export function passwordPool(): Piscina<Derive, string> {
	pool ??= new Piscina<Derive, string>({
		filename: WORKER,
		minThreads: 0,
		maxThreads: Math.min(4, availableParallelism()),
		idleTimeout: 30_000,
		resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4, codeRangeSizeMb: 8 },
		// Below the event loop's priority: a storm of sign-ins takes only the CPU left over.
		niceIncrement: 5,
	})
	return pool
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16).toString('hex')
	return `${salt}:${await passwordPool().run({ password, salt })}`
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
	const [salt, key] = hash.split(':')
	if (!salt || !key || !/^[0-9a-f]+$/i.test(key)) return false
	const derived = Buffer.from(await passwordPool().run({ password, salt }), 'hex')
	const stored = Buffer.from(key, 'hex')
	return derived.length === stored.length && timingSafeEqual(derived, stored)
}

/** For shutdown and tests: the pool's threads stop. */
export async function closePasswordPool() {
	const current = pool
	pool = undefined
	await current?.destroy()
}
