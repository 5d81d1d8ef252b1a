/**
 * One scrypt derivation, run inside a worker thread of the password pool
 * (app/auth/password-hashing.server.ts). Plain JavaScript with only node:crypto, so the
 * same file runs from source (dev, vitest) and as copied beside the server build.
 *
 * better-auth's parameters, unchanged (@better-auth/utils/password.node): N=16384, r=16,
 * p=1, 64-byte key, the password NFKC-normalised, the salt used as its hex text.
 * scryptSync: the worker's own thread does the work; libuv's shared pool is never used.
 */
import { scryptSync } from 'node:crypto'

export const SCRYPT = { N: 16384, r: 16, p: 1, dkLen: 64 }

/** @param {{ password: string, salt: string }} task @returns {string} the key, hex */
export default function derive({ password, salt }) {
	const { N, r, p, dkLen } = SCRYPT
	return scryptSync(password.normalize('NFKC'), salt, dkLen, { N, r, p, maxmem: 128 * N * r * 2 }).toString('hex')
}
