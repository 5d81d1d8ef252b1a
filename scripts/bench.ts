/**
 * `npm run bench`: throughput and latency of the built server on a fresh SQLite
 * database (or DATABASE_URL=postgresql://… for a database you created). Prints
 * figures; asserts nothing — speed goals live here, never in timed unit tests.
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { cookieHeader } from '../tests/helpers/http'
import { benchBudget, buildBaseline } from './bench/budget'
import { checkoutRow } from './bench/checkout'
import { benchOverload } from './bench/overload'
import { benchRedisFaults } from './bench/redis-faults'
import { benchScale } from './bench/scale'
import { benchAdmin as admin, measure as measureRow, postForm, type Server, startStore as startServer } from './bench/servers'
import { benchUploads } from './bench/uploads'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run bench [-- --seconds N --connections N --rounds N --load-seconds N --budget | --features | --redis-faults | --overload --no-build]
       npm run bench -- --scale [--scale-database URL | --products N --orders N --customers N] [--only WORD,…] [--seconds N --connections N --rounds N --no-build]

Builds the store and a bare React Router app (scripts/bench/baseline), then:
- features (skip with --budget): the built server on a fresh SQLite database: the home
  page as a guest, /account and /admin as signed-in users, a direct admin data request,
  email sign-in (scrypt); storefront rows (product page, a cart of three, a checkout
  submit); uploads of a 2 MB PNG on disk and on a local S3 stand-in (s3rver) and the
  server's peak memory while a customer sends a 200 MB upload body; the rate limiter off,
  in memory and on Redis; what a hung or down Redis adds to a request
  (scripts/bench/redis-faults.ts; alone with --redis-faults); the store offered three times
  its capacity: what is admitted (p50/p99), shed (503) or failed, and peak RSS
  (scripts/bench/overload.ts; alone with --overload).
- the performance budget (skip with --features): the store beside the baseline,
  interleaved rounds, sign-in against raw scrypt, latency during a sign-in storm, peak
  memory over 60 s of pages at 50 connections and a storm; checkout submits (SQLite, and
  48 at once on PostgreSQL); provider-event ingest on SQLite and PostgreSQL, through the
  handler and over HTTP (scripts/bench/events.ts). Ends with the line
  "bench: page/baseline=… product/baseline=… signin/scrypt=… storm_healthz_p99_ms=… rss_peak_mb=…".
- --scale (alone): the pages a real shop leans on (catalog sorts and a late page, a product,
  search, a collection, cart add, checkout; Store Admin's overview, Orders, an Order, customers,
  products, activity) on a store of 10,000 products, 100,000 Orders and 20,000 customers (or the
  sizes given, or the database --scale-database names, SQLite or PostgreSQL, filled by npm run
  seed:scale) and on one of demo size on the same engine, both served at once and measured page by page side by side for
  --rounds (default 3); ends with a "scale:" line per page giving large ÷ demo for p50 and p99
  (the median of the rounds' ratios), and the server's peak RSS on each (scripts/bench/scale.ts).
  --only customers,overview measures just the pages whose title holds one of those words.
Prints figures; asserts nothing.`)
	process.exit(0)
}

const arg = (name: string, fallback: number) => {
	const index = process.argv.indexOf(`--${name}`)
	return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const seconds = arg('seconds', 5)
const connections = arg('connections', 10)
const budgetOnly = process.argv.includes('--budget')
const featuresOnly = process.argv.includes('--features')

if (!process.argv.includes('--no-build')) {
	console.log('building the store and the baseline app…')
	if (spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1)
	buildBaseline()
}

// The features rows' server, set by benchFeatures (declared before the awaits below run it).
let main: Server
let base = ''

if (process.argv.includes('--scale')) {
	const named = process.argv.indexOf('--scale-database')
	const only = process.argv.indexOf('--only')
	await benchScale({
		only: only > 0 ? process.argv[only + 1]?.split(',') : undefined,
		seconds,
		connections,
		rounds: arg('rounds', 3),
		database: named > 0 ? process.argv[named + 1] : undefined,
		size: { products: arg('products', 10_000), orders: arg('orders', 100_000), customers: arg('customers', 20_000) },
	})
	process.exit(0)
}
if (process.argv.includes('--redis-faults')) {
	await benchRedisFaults()
	process.exit(0)
}
if (process.argv.includes('--overload')) {
	await benchOverload(seconds * 2)
	process.exit(0)
}
if (!budgetOnly) await benchFeatures()
if (!featuresOnly) {
	const { line } = await benchBudget({ seconds, connections, rounds: arg('rounds', 5), loadSeconds: arg('load-seconds', 60) })
	console.log(`
${line.startsWith('bench:') ? line : `bench: ${line}`}`)
}

async function benchFeatures() {
	// The rows below measure the store, not the limiter: limits off here; compared separately.
	main = await startServer({ RATE_LIMITS: 'off' })
	base = main.base

	try {
		const customer = await signUp()
		const adminCookie = await signIn(admin.email, admin.password)

		const shop = await prepareShopper()
		const rows = [
			await measure('GET /no-such-page (404, in-app reference)', { url: `${base}/no-such-page`, headers: { cookie: shop.guestCookie } }),
			await measure('GET / (guest)', { url: `${base}/`, headers: { cookie: shop.guestCookie } }),
			await measure('GET /products/:slug (guest)', { url: `${base}/products/canvas-tote`, headers: { cookie: shop.guestCookie } }),
			await measure('GET /cart (guest, 3 lines)', { url: `${base}/cart`, headers: { cookie: shop.cartCookie } }),
			await checkoutRow(main, { connections }),
			await measure('GET /account (customer)', { url: `${base}/account`, headers: { cookie: customer.cookie } }),
			await measure('GET /admin/store (admin)', { url: `${base}/admin/store`, headers: { cookie: adminCookie } }),
			await measure('GET /admin/store.data (admin)', { url: `${base}/admin/store.data`, headers: { cookie: adminCookie } }),
			await measure('GET /admin (anonymous → 302)', { url: `${base}/admin` }),
			await measure('POST /sign-in (scrypt)', {
				url: `${base}/sign-in`,
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
				body: new URLSearchParams({ email: customer.email, password: customer.password }).toString(),
			}),
		]
		console.log(`\n${seconds}s per row, ${connections} connections, ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'fresh SQLite'}\n`)
		console.table(rows)
		console.log(`server memory after the run: ${main.rssMb()} MiB RSS`)

		const uploadRows = await benchUploads({ label: 'disk', base, adminCookie, customerCookie: customer.cookie, rssMb: main.rssMb }, { seconds, connections })
		uploadRows.push(...(await benchS3Uploads()))
		console.log('\nuploads (peak = server RSS sampled every 20 ms during the row)\n')
		console.table(uploadRows)
		console.log('\nrate limits on a General page (GET /products/canvas-tote): off, in memory, Redis\n')
		console.table(await benchRateLimits())
		await benchRedisFaults()
	} finally {
		await main.stop()
	}
}

/** The product page with limits off (the main server), in memory, and on the local Redis. */
async function benchRateLimits() {
	const generous = { RATE_LIMIT_GENERAL: '999999/60' }
	const rows = []
	const page = async (label: string, server: Server) => {
		// Same footing for every server: a warm-up run (JIT, connections) before the measured one.
		await autocannon({ url: `${server.base}/products/canvas-tote`, connections, duration: 2 })
		const row = await measure(`${label}`, { url: `${server.base}/products/canvas-tote` })
		return { ...row, 'vs off': '' }
	}
	const off = await page('limits off', main)
	rows.push(off)
	for (const [label, env] of [
		['in memory', generous],
		['Redis', { ...generous, REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' }],
	] as const) {
		const server = await startServer(env)
		try {
			const row = await page(label, server)
			rows.push({ ...row, 'vs off': `${Math.round((row['req/s'] / Math.max(1, off['req/s'])) * 100)} %` })
		} finally {
			await server.stop()
		}
	}
	return rows
}

/** The same upload row against a second server whose storage is a local S3 stand-in (s3rver). */
async function benchS3Uploads() {
	const s3Dir = mkdtempSync(join(tmpdir(), 'store-bench-s3-'))
	const s3 = spawn(process.execPath, ['tests/helpers/s3-stand-in.cjs', s3Dir, 'bench'], { stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve, reject) => {
		s3.stdout.setEncoding('utf8').on('data', (line: string) => {
			const match = /port=(\d+)/.exec(line)
			if (match) resolve(Number(match[1]))
		})
		s3.once('exit', () => reject(new Error('the S3 stand-in stopped')))
	})
	const server = await startServer({
		UPLOAD_STORAGE: 's3',
		S3_BUCKET: 'bench',
		S3_ENDPOINT: `http://127.0.0.1:${port}`,
		S3_ACCESS_KEY_ID: 'S3RVER',
		S3_SECRET_ACCESS_KEY: 'S3RVER',
	})
	try {
		const cookie = await postForm(server.base, '/sign-in', { email: admin.email, password: admin.password })
		return await benchUploads({ label: 's3rver', base: server.base, adminCookie: cookie, customerCookie: '', rssMb: server.rssMb }, { seconds, connections })
	} finally {
		await server.stop()
		s3.kill('SIGTERM')
		rmSync(s3Dir, { recursive: true, force: true })
	}
}

/** A guest with a cookie, and a guest whose cart holds three demo products. */
async function prepareShopper() {
	const first = await fetch(`${base}/`)
	const guestCookie = cookieHeader(first.headers)
	const cart = await fetch(`${base}/`)
	const cartCookie = cookieHeader(cart.headers)
	for (const slug of ['canvas-tote', 'enamel-mug', 'field-notebook']) {
		const html = await (await fetch(`${base}/products/${slug}`, { headers: { cookie: cartCookie } })).text()
		const productId = /name="productId" value="([^"]+)"/.exec(html)?.[1] ?? ''
		await fetch(`${base}/cart`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie: cartCookie, origin: base },
			body: new URLSearchParams({ intent: 'add', productId, quantity: '1' }),
		})
	}
	return { guestCookie, cartCookie }
}

function measure(title: string, options: autocannon.Options) {
	return measureRow(title, { connections, duration: seconds, ...options })
}

async function signUp() {
	const account = { name: 'Bench Shopper', email: `bench-${Date.now()}@example.com`, password: `bench-${randomBytes(8).toString('hex')}` }
	return { ...account, cookie: await postForm(base, '/sign-up', account) }
}

function signIn(email: string, password: string) {
	return postForm(base, '/sign-in', { email, password })
}
