import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * packages that only some deployments use
 * are loaded the first time a configured feature calls for them, never at start. A SQLite store
 * without Redis, S3 or Stripe does not carry the PostgreSQL driver, ioredis, @upstash/ratelimit,
 * the AWS SDK or the Stripe SDK: together ~30 MB of heap and code in a process meant to stay
 * under 250 MB. Loading is synchronous (CommonJS `require`), so call sites keep their shape.
 */
export function onFirstUse<T>(name: OptionalPackage): () => T {
	let loaded: T | undefined
	return () => (loaded ??= require(name) as T)
}

/** The packages loaded this way; `optional-packages.server.test.ts` checks a store loads only those it is configured for. */
export const OPTIONAL_PACKAGES = [
	'@aws-sdk/client-s3',
	'stripe',
	'@prisma/adapter-pg',
	// The readiness check's own PostgreSQL connection (the adapter above loads it too).
	'pg',
	'@prisma/adapter-better-sqlite3',
	'ioredis',
	'@upstash/ratelimit',
	// Smaller copies of product images, made the first time a page asks for one.
	'sharp',
] as const

export type OptionalPackage = (typeof OPTIONAL_PACKAGES)[number]
