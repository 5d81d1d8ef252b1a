import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from '../../server/migrate'
import { OPTIONAL_PACKAGES } from './optional-packages.server'

/**
 * a store that does not use PostgreSQL,
 * Redis, S3 or Stripe must not carry their packages. Each case runs in a fresh Node process
 * (a test worker's module cache is shared by every test file it runs) and prints which of the
 * optional packages are in its CommonJS cache, where ESM imports of them land too.
 */
const REPORT = `
const { createRequire } = await import('node:module')
const cached = Object.keys(createRequire(import.meta.url).cache)
const names = ${JSON.stringify(OPTIONAL_PACKAGES)}
console.log('loaded:' + JSON.stringify(names.filter((name) => cached.some((path) => path.includes('/node_modules/' + name + '/')))))
`

/** A module loader hook that answers a stylesheet import with an empty module. */
const CSS_STUB = `export async function load(url, context, next) {
	return /[.]css([?].*)?$/.test(url) ? { format: 'module', source: 'export default ""', shortCircuit: true } : next(url, context)
}`

function loadedAfter(script: string, env: NodeJS.ProcessEnv = {}): string[] {
	const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `${script}\n${REPORT}`], {
		encoding: 'utf8',
		env: { ...process.env, ...env },
	})
	const line = output.split('\n').find((text) => text.startsWith('loaded:'))
	if (!line) throw new Error(`the child printed no report:\n${output}`)
	return JSON.parse(line.slice('loaded:'.length))
}

const dir = mkdtempSync(join(tmpdir(), 'store-optional-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('optional packages are loaded on first use (memory)', () => {
	it('a SQLite store without Redis, S3 or Stripe loads only its own driver, with every route module and the server middleware', () => {
		const url = `file:${join(dir, 'store.db')}`
		migrateDatabase(url, { quiet: true })
		const loaded = loadedAfter(
			`
// Vite serves the stylesheet import of root.tsx; plain Node only needs it to exist.
const { register } = await import('node:module')
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(CSS_STUB)}))
const { default: routes } = await import('./app/routes.ts')
const files = []
const walk = (list) => { for (const route of list) { files.push(route.file); walk(route.children ?? []) } }
walk(routes)
await import('./app/root.tsx')
for (const file of files) await import('./app/' + file)
// What server/server.ts wires in front of the routes.
await import('./app/security/http.server.ts')
await import('./app/auth/workload-credential.server.ts')
await import('./app/security/rate-limit/middleware.server.ts')

const { createDb } = await import('./app/data/db.server.ts')
const db = createDb(process.env.DATABASE_URL)
await db.store.count()
const { parseConfig } = await import('./app/config/env.server.ts')
const { createStoreLimiter } = await import('./app/security/rate-limit/rate-limit.server.ts')
const limiter = createStoreLimiter(parseConfig({ NODE_ENV: 'test', DATABASE_URL: process.env.DATABASE_URL }))
await limiter.check('127.0.0.1', 'general')
const { createStorage } = await import('./app/uploads/storage/index.server.ts')
createStorage({ storage: 'disk', dir: '${join(dir, 'uploads')}', s3: {} })
await db.$disconnect()
`,
			{ DATABASE_URL: url },
		)
		expect(loaded).toEqual(['@prisma/adapter-better-sqlite3'])
	})

	it('each is loaded once its feature is configured (the check above can fail)', () => {
		const loaded = loadedAfter(`
const { createDriverAdapter } = await import('./app/data/driver-adapter.server.ts')
createDriverAdapter('postgresql://nobody@127.0.0.1:1/none')
createDriverAdapter('file:${join(dir, 'other.db')}')
const { parseConfig } = await import('./app/config/env.server.ts')
const { createStoreLimiter } = await import('./app/security/rate-limit/rate-limit.server.ts')
const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: 'file:${join(dir, 'other.db')}', REDIS_URL: 'redis://127.0.0.1:1' })
await createStoreLimiter(config).close()
const { s3Storage } = await import('./app/uploads/storage/s3.server.ts')
s3Storage({ bucket: 'b', region: 'us-east-1', forcePathStyle: true })
const { stripeClient } = await import('./app/payments/providers/stripe.server.ts')
stripeClient({ secretKey: 'sk_test_unused', webhookSecret: '' })
const { rendition } = await import('./app/uploads/renditions.server.ts')
await rendition('k.png', 320, () => Promise.resolve(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')))
`)
		expect([...loaded].sort()).toEqual([...OPTIONAL_PACKAGES].sort())
	})
})
