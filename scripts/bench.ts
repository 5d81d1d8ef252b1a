/**
 * `npm run bench`: throughput and latency of the built server on a fresh SQLite
 * database (or DATABASE_URL=postgresql://… for a database you created). Prints
 * figures; asserts nothing — speed goals live here, never in timed unit tests.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createDb } from '../app/data/db.server'
import { cookieHeader, freePort } from '../tests/helpers/http'
import { benchEvents } from './bench/events'
import { benchUploads } from './bench/uploads'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run bench [-- --seconds N --connections N]

Starts the production build (run \`npm run build\` first) on a free port with a
fresh SQLite database, then measures: the home page as a guest, /account and
/admin as signed-in users, a direct admin data request, and email sign-in
(scrypt); storefront rows (product page, a cart of three, a checkout submit);
then uploads of a 2 MB PNG on disk and on a local S3 stand-in (s3rver),
and the server's peak memory while a customer sends a 200 MB upload body; then
provider-event ingest on SQLite and PostgreSQL with 10x duplicate deliveries.
Prints requests/s, latency percentiles and the server's memory.`)
	process.exit(0)
}

const arg = (name: string, fallback: number) => {
	const index = process.argv.indexOf(`--${name}`)
	return index > 0 ? Number(process.argv[index + 1]) : fallback
}
const seconds = arg('seconds', 5)
const connections = arg('connections', 10)

const admin = { email: 'bench-admin@example.com', password: randomBytes(12).toString('hex') }

type Server = { base: string; databaseUrl: string; stop: () => Promise<void>; rssMb: () => number }

/** The production build on a free port with a fresh SQLite database (and `env` on top). */
async function startServer(env: Record<string, string> = {}): Promise<Server> {
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const dir = mkdtempSync(join(tmpdir(), 'store-bench-'))
	const databaseUrl = process.env.DATABASE_URL ?? `file:${join(dir, 'store.db')}`
	const child = spawn(process.execPath, ['tests/e2e/support/start-server.mjs'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			AUTH_URL: base,
			APP_URL: base,
			AUTH_SECRET: randomBytes(32).toString('base64'),
			DATABASE_URL: databaseUrl,
			ADMIN_EMAIL: admin.email,
			ADMIN_PASSWORD: admin.password,
			UPLOAD_DIR: join(dir, 'uploads'),
			...env,
		},
	})
	const stop = async () => {
		const exited = new Promise((resolve) => child.once('exit', resolve))
		child.kill('SIGTERM')
		await exited
		rmSync(dir, { recursive: true, force: true })
	}
	try {
		await waitForHealth(base)
	} catch (error) {
		await stop()
		throw error
	}
	return { base, databaseUrl, stop, rssMb: () => serverRssMb(child.pid) }
}

// The rows below measure the store, not the limiter: limits off here; compared separately.
const main = await startServer({ RATE_LIMITS: 'off' })
const base = main.base

try {
	const customer = await signUp()
	const adminCookie = await signIn(admin.email, admin.password)

	const shop = await prepareShopper()
	const rows = [
		await measure('GET /no-such-page (404, in-app reference)', { url: `${base}/no-such-page`, headers: { cookie: shop.guestCookie } }),
		await measure('GET / (guest)', { url: `${base}/`, headers: { cookie: shop.guestCookie } }),
		await measure('GET /products/:slug (guest)', { url: `${base}/products/canvas-tote`, headers: { cookie: shop.guestCookie } }),
		await measure('GET /cart (guest, 3 lines)', { url: `${base}/cart`, headers: { cookie: shop.cartCookie } }),
		await measureCheckout(shop),
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

	const uploadRows = await benchUploads(
		{ label: 'disk', base, adminCookie, customerCookie: customer.cookie, rssMb: main.rssMb },
		{ seconds, connections },
	)
	uploadRows.push(...(await benchS3Uploads()))
	console.log('\nuploads (peak = server RSS sampled every 20 ms during the row)\n')
	console.table(uploadRows)
	console.log('\nrate limits on a General page (GET /products/canvas-tote): off, in memory, Redis\n')
	console.table(await benchRateLimits())
	console.log('\nprovider event ingest (each event delivered 10 times, shuffled, 10 at a time)\n')
	console.table(await benchEvents())
} finally {
	await main.stop()
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
	const notebook = /name="productId" value="([^"]+)"/.exec(await (await fetch(`${base}/products/field-notebook`)).text())?.[1] ?? ''
	return { guestCookie, cartCookie, notebook }
}

/**
 * Checkout submits: each request is a different guest (its own cart of one notebook, its
 * own idempotency key), placing a real Order in one transaction. Carts are prepared first,
 * so the row times the checkout alone.
 */
async function measureCheckout(shop: { notebook: string }) {
	// Enough stock for every checkout of the row (the demo has 60 notebooks).
	const db = createDb(main.databaseUrl)
	await db.product.updateMany({ data: { stock: 1_000_000 } })
	await db.$disconnect()
	const guests: string[] = []
	for (let i = 0; i < 400; i++) {
		const home = await fetch(`${base}/no-such-page`)
		const cookie = cookieHeader(home.headers)
		await fetch(`${base}/cart`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie, origin: base },
			body: new URLSearchParams({ intent: 'add', productId: shop.notebook, quantity: '1' }),
		})
		guests.push(cookie)
	}
	let next = 0
	const form = (key: string) =>
		new URLSearchParams({
			email: 'bench@example.com',
			name: 'Bench Buyer',
			addressLine1: '1 Bench Street',
			addressLine2: '',
			city: 'Loadtown',
			postalCode: '12345',
			country: 'US',
			payment: 'offline',
			idempotencyKey: key,
		}).toString()
	const row = await measure('POST /checkout (offline, new Order)', {
		url: base,
		amount: guests.length,
		requests: [
			{
				method: 'POST',
				path: '/checkout',
				setupRequest: (request) => {
					const cookie = guests[next++ % guests.length] ?? ''
					const headers = { ...request.headers, cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' }
					return { ...request, headers, body: form(crypto.randomUUID()) }
				},
			},
		],
	})
	// The row counts only if every submit really placed an Order.
	const check = createDb(main.databaseUrl)
	const placed = await check.order.count({ where: { email: 'bench@example.com' } })
	await check.$disconnect()
	return { ...row, route: `${row.route}: ${placed} placed` }
}

async function measure(title: string, options: autocannon.Options) {
	const result = await autocannon({ connections, duration: seconds, ...options })
	const ok = result['2xx'] + result['3xx']
	return {
		route: title,
		'req/s': Math.round(result.requests.average),
		'p50 ms': result.latency.p50,
		'p99 ms': result.latency.p99,
		'ok %': Math.round((ok / Math.max(1, ok + result['4xx'] + result['5xx'] + result.errors)) * 1000) / 10,
	}
}

async function waitForHealth(base: string) {
	for (let i = 0; i < 120; i++) {
		const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false)
		if (ok) return
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	throw new Error('the server did not become healthy within 60 s')
}

/** Posts a form as the browser would and returns the session cookies of its redirect. */
async function postForm(base: string, path: string, fields: Record<string, string>) {
	const response = await fetch(`${base}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: base },
		body: new URLSearchParams(fields),
	})
	if (response.status !== 302) throw new Error(`${path} answered ${response.status}`)
	return cookieHeader(response.headers)
}

async function signUp() {
	const account = { name: 'Bench Shopper', email: `bench-${Date.now()}@example.com`, password: `bench-${randomBytes(8).toString('hex')}` }
	return { ...account, cookie: await postForm(base, '/sign-up', account) }
}

function signIn(email: string, password: string) {
	return postForm(base, '/sign-in', { email, password })
}

/** Memory of the node process serving requests (the start script's child). */
function serverRssMb(starter: number | undefined): number {
	try {
		const children = readFileSync(`/proc/${starter}/task/${starter}/children`, 'utf8').trim().split(/\s+/)
		const status = readFileSync(`/proc/${children.at(-1)}/status`, 'utf8')
		const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
		return Math.round(kb / 1024)
	} catch {
		return Number.NaN
	}
}
