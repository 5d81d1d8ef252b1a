/**
 * `npm run bench -- --scale`: every page a real shop leans on, measured on a store of real size
 * and on one of demo size served at once, side by side page by page over rounds, with the ratio
 * (large ÷ demo) of each page's p50 and p99 and each server's peak memory. Both stores come from the same generator
 * (scripts/lib/scale-seed.ts); the large one is `--scale-database URL` (filled beforehand with
 * `npm run seed:scale`, SQLite or PostgreSQL, the demo store then on the same engine) or seeded
 * here in a temporary folder.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDb } from '../../app/data/db.server'
import { ADMIN_ORDERS_PAGE_SIZE } from '../../app/orders/admin-orders.server'
import { COMMON_WORD, RARE_WORD } from '../lib/scale-rows'

/** A first name the generator gives many customers, so many accounts and Orders' emails hold it. */
const COMMON_BUYER_WORD = 'ada'
import { cookieHeader } from '../../tests/helpers/http'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { checkoutRow } from './checkout'
import autocannon from 'autocannon'
import { benchAdmin, measure, okPercent, postForm, type Row, sampleRss, startStore } from './servers'

export type ScaleOptions = {
	seconds: number
	connections: number
	rounds: number
	database?: string
	size: { products: number; orders: number; customers: number }
	/** Only the pages whose title holds one of these words, and no checkout or export: for a quick look at a few. */
	only?: string[]
}
type Page = { title: string; path: string; method?: 'POST'; admin?: boolean; body?: string }
type Measured = { page: string; p50: number; p99: number; ok: number; kb?: number }

/**
 * A store of `size` in a new database of the engine asked for: a SQLite file, or a PostgreSQL
 * database on the local server (tests/helpers/postgres.ts); `cleanUp` removes either.
 */
async function seeded(size: ScaleOptions['size'], engine: 'sqlite' | 'postgresql' = 'sqlite') {
	const dir = mkdtempSync(join(tmpdir(), 'store-scale-'))
	const database = engine === 'postgresql' ? await createTestDatabase('store_scale') : null
	const url = database?.url ?? `file:${join(dir, 'store.db')}`
	const args = ['run', 'seed:scale', '--', '--products', String(size.products), '--orders', String(size.orders), '--customers', String(size.customers)]
	const run = spawnSync('npm', args, { env: { ...process.env, DATABASE_URL: url, UPLOAD_DIR: join(dir, 'uploads') }, stdio: ['ignore', 'inherit', 'inherit'] })
	const cleanUp = async () => {
		rmSync(dir, { recursive: true, force: true })
		if (database) await dropTestDatabase(database.name)
	}
	if (run.status !== 0) {
		await cleanUp()
		throw new Error(`seed:scale failed for ${JSON.stringify(size)}`)
	}
	return { url, cleanUp }
}

/** What each page is asked for on this store: the same pages, this store's own rows. */
async function pagesOf(url: string): Promise<{ pages: Page[]; slug: string }> {
	const db = createDb(url)
	try {
		// A store measured before keeps the bench admin of that run, whose password was another:
		// start-up creates it anew with this run's (its activity entries keep their email).
		await db.user.deleteMany({ where: { email: benchAdmin.email } })
		const active = { status: 'active' }
		const [variants, single, collection, orders, products, guest] = await Promise.all([
			db.product.findFirstOrThrow({ where: { ...active, optionNames: { not: '[]' } }, select: { slug: true } }),
			db.product.findFirstOrThrow({ where: { ...active, optionNames: '[]' }, select: { slug: true, id: true } }),
			db.collection.findFirstOrThrow({ orderBy: { position: 'asc' }, select: { slug: true } }),
			db.order.count(),
			db.product.count({ where: active }),
			// The guest buyer with the most recent Order, as the guest buyers' list shows first.
			db.order.findFirstOrThrow({ where: { userId: null }, orderBy: { createdAt: 'desc' }, select: { email: true } }),
		])
		const lastNumber = 1000 + orders
		const late = (count: number, size: number) => Math.max(1, Math.floor((count / size) * 0.8))
		const pages: Page[] = [
			{ title: '/ newest', path: '/' },
			{ title: '/ price', path: '/?sort=price-asc' },
			{ title: '/ name', path: '/?sort=name' },
			{ title: '/ page 400', path: `/?page=${Math.min(400, late(products, 12))}` },
			{ title: '/products/:slug (variants)', path: `/products/${variants.slug}` },
			{ title: '/search common', path: `/search?q=${COMMON_WORD}` },
			{ title: '/search rare', path: `/search?q=${RARE_WORD}` },
			{ title: '/collections/:slug', path: `/collections/${collection.slug}` },
			{
				title: 'POST /cart add',
				path: '/cart',
				method: 'POST',
				body: new URLSearchParams({ intent: 'add', productId: single.id, quantity: '1' }).toString(),
			},
			{ title: '/admin overview', path: '/admin', admin: true },
			{ title: '/admin/orders', path: '/admin/orders', admin: true },
			{ title: '/admin/orders?status=fulfilled', path: '/admin/orders?status=fulfilled', admin: true },
			// Where 4,000 "Older" links lead on the large store: the page below the Order 80% of the way
			// down. A full page on both stores (the demo's 20 Orders all), so the ratio is of depth, not of rows.
			{
				title: '/admin/orders late page',
				path: `/admin/orders?before=${Math.max(lastNumber + 1 - late(orders, 1), 1001 + ADMIN_ORDERS_PAGE_SIZE)}`,
				admin: true,
			},
			// A word in many buyers' emails (the seed's first names), one in every email (a full page
			// on both stores, so its ratio is of the search alone), and one no email has.
			{ title: '/admin/orders?q= common', path: `/admin/orders?q=${COMMON_BUYER_WORD}`, admin: true },
			{ title: '/admin/orders?q= every', path: '/admin/orders?q=example', admin: true },
			{ title: '/admin/orders?q= none', path: '/admin/orders?q=zzyzx', admin: true },
			{ title: '/admin/orders/:number', path: `/admin/orders/${lastNumber - Math.floor(orders / 2)}`, admin: true },
			{ title: '/admin/customers', path: '/admin/customers', admin: true },
			{ title: '/admin/customers?q=', path: `/admin/customers?q=${COMMON_BUYER_WORD}`, admin: true },
			{ title: '/admin/customers guests', path: '/admin/customers?show=guests', admin: true },
			{ title: '/admin/customers/guest', path: `/admin/customers/guest?email=${encodeURIComponent(guest.email)}`, admin: true },
			{ title: '/admin/products', path: '/admin/products', admin: true },
			{ title: '/admin/activity', path: '/admin/activity', admin: true },
		]
		return { pages, slug: single.slug }
	} finally {
		await db.$disconnect()
	}
}

/** One store served for the run: its pages, its sessions and its memory sampled throughout. */
async function openStore(url: string) {
	const { pages, slug } = await pagesOf(url)
	const server = await startStore({ DATABASE_URL: url, RATE_LIMITS: 'off', E2E_DEMO: '0' })
	const rss = sampleRss(server)
	const base = server.base
	const guest = cookieHeader((await fetch(`${base}/no-such-page`)).headers)
	const admin = await postForm(base, '/sign-in', { email: benchAdmin.email, password: benchAdmin.password })
	const measurePage = async (page: Page, { seconds, connections }: Pick<ScaleOptions, 'seconds' | 'connections'>) => {
		const headers: Record<string, string> = { cookie: page.admin ? admin : guest }
		if (page.method === 'POST') Object.assign(headers, { origin: base, 'content-type': 'application/x-www-form-urlencoded' })
		const options = { url: `${base}${page.path}`, method: page.method ?? ('GET' as const), headers, body: page.body, connections, duration: seconds }
		// A short warm-up run first (JIT, caches, connections), as every bench row has.
		await measure(page.title, { ...options, duration: 1 })
		return measureFine(page.title, options)
	}
	return { server, rss, pages, slug, admin, measurePage }
}

/**
 * Both stores serve at once and each page is measured on the demo store and then on the large
 * one, round after round: on a shared machine whose speed drifts within minutes, only figures
 * taken side by side make a ratio. Each page's ratio is the median of its rounds' ratios.
 */
async function measureSideBySide(demoUrl: string, largeUrl: string, options: ScaleOptions) {
	const demo = await openStore(demoUrl)
	const large = await openStore(largeUrl)
	try {
		const rounds: Array<Array<{ demo: Measured; large: Measured }>> = []
		for (let round = 0; round < options.rounds; round++) {
			const pairs = []
			for (const [i, page] of demo.pages.entries()) {
				if (options.only && !options.only.some((word) => page.title.includes(word))) continue
				pairs.push({ demo: await demo.measurePage(page, options), large: await large.measurePage(large.pages[i]!, options) })
			}
			rounds.push(pairs)
		}
		if (options.only) return { rounds, checkouts: [], exported: [], alive: [true, true], rssPeak: [demo.rss.peak, large.rss.peak] }
		const checkouts = []
		for (const store of [demo, large]) {
			checkouts.push(shown(await checkoutRow(store.server, { connections: options.connections, count: 200, warmUp: 50, slug: store.slug }), 'POST /checkout'))
		}
		const exported = []
		for (const store of [demo, large]) {
			exported.push(await exportAllOrders(store.server.base, store.admin))
		}
		// Still serving after it: a heap too small for the export would have ended the process.
		const alive = await Promise.all([demo, large].map(async (store) => (await fetch(`${store.server.base}/healthz`).catch(() => null))?.status === 200))
		return { rounds, checkouts, exported, alive, rssPeak: [demo.rss.peak, large.rss.peak] }
	} finally {
		for (const store of [demo, large]) {
			store.rss.stop()
			await store.server.stop()
		}
	}
}

/**
 * Store Admin's CSV of every Order, read as it streams, under the heap cap `npm start` sets: how
 * long it took, its lines and size. The RSS sampled meanwhile is part of the store's peak.
 */
async function exportAllOrders(base: string, cookie: string) {
	const started = performance.now()
	const response = await fetch(`${base}/admin/orders/export.csv`, { headers: { cookie } })
	if (!response.ok || !response.body) throw new Error(`the Orders export answered ${response.status}`)
	let lines = 0
	let bytes = 0
	const reader = response.body.getReader()
	for (let read = await reader.read(); !read.done; read = await reader.read()) {
		bytes += read.value.byteLength
		for (const byte of read.value) if (byte === 10) lines++
	}
	return { seconds: Math.round((performance.now() - started) / 100) / 10, lines, mb: Math.round(bytes / 1e5) / 10 }
}

/**
 * A page measured as `measure` does, each response's time kept to the microsecond from
 * autocannon's `response` event: its own percentiles are whole milliseconds, and at 2–4 ms a
 * page a ratio of 1.33 or 2 is one millisecond of rounding. Also the page's size in KB, so a
 * ratio between pages of unequal size (6 cards against 12, 1 row against 20) is seen as such.
 */
async function measureFine(title: string, options: autocannon.Options): Promise<Measured> {
	const times: number[] = []
	let bytes = 0
	const result = await new Promise<autocannon.Result>((resolve, reject) => {
		const run = autocannon(options, (error: unknown, done: autocannon.Result) => (error ? reject(error) : resolve(done)))
		run.on('response', (_client, _status, resBytes, ms) => {
			times.push(ms)
			bytes += resBytes
		})
	})
	times.sort((a, b) => a - b)
	const at = (q: number) => Math.round((times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? Number.NaN) * 100) / 100
	return {
		page: title,
		p50: at(0.5),
		p99: at(0.99),
		ok: okPercent(result),
		kb: Math.round(bytes / Math.max(1, times.length) / 102.4) / 10,
	}
}

const shown = (row: Row, page = row.route): Measured => ({ page, p50: row['p50 ms'], p99: row['p99 ms'], ok: row['ok %'] })

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const ratio = (a: number, b: number) => a / Math.max(0.01, b)
const rounded = (value: number) => Math.round(value * 100) / 100

export async function benchScale(options: ScaleOptions) {
	// Both stores on one engine: the large store's, or SQLite when the bench seeds it.
	const engine = options.database && /^postgres(?:ql)?:/.test(options.database) ? 'postgresql' : 'sqlite'
	console.log(`seeding the demo-size store (6 products, 20 Orders, 5 customers) on ${engine}…`)
	const demo = await seeded({ products: 6, orders: 20, customers: 5 }, engine)
	const large = options.database ? { url: options.database, cleanUp: async () => {} } : await seeded(options.size)
	try {
		const run = await measureSideBySide(demo.url, large.url, options)
		const pairsOf = (i: number) => run.rounds.map((pairs) => pairs[i]!)
		const table = run.rounds[0]!.map(({ demo: first }, i) => {
			const pairs = pairsOf(i)
			return {
				page: first.page,
				'demo p50': median(pairs.map((pair) => pair.demo.p50)),
				'demo p99': median(pairs.map((pair) => pair.demo.p99)),
				'large p50': median(pairs.map((pair) => pair.large.p50)),
				'large p99': median(pairs.map((pair) => pair.large.p99)),
				'p50 ×': rounded(median(pairs.map((pair) => ratio(pair.large.p50, pair.demo.p50)))),
				'p99 ×': rounded(median(pairs.map((pair) => ratio(pair.large.p99, pair.demo.p99)))),
				'p50 × by round': pairs.map((pair) => rounded(ratio(pair.large.p50, pair.demo.p50))).join(' '),
				'KB demo / large': `${pairs[0]!.demo.kb} / ${pairs[0]!.large.kb}`,
				'ok %': Math.min(...pairs.map((pair) => pair.large.ok)),
			}
		})
		const [demoCheckout, largeCheckout] = run.checkouts as [Measured?, Measured?]
		if (demoCheckout && largeCheckout)
			table.push({
				page: 'POST /checkout',
				'demo p50': demoCheckout.p50,
				'demo p99': demoCheckout.p99,
				'large p50': largeCheckout.p50,
				'large p99': largeCheckout.p99,
				'p50 ×': rounded(ratio(largeCheckout.p50, demoCheckout.p50)),
				'p99 ×': rounded(ratio(largeCheckout.p99, demoCheckout.p99)),
				'p50 × by round': 'one run',
				'KB demo / large': '—',
				'ok %': largeCheckout.ok,
			})
		console.log(
			`\n${options.rounds} rounds of ${options.seconds}s per page and store, ${options.connections} connections; ms (medians over rounds); × is large ÷ demo, the median of each round's ratio (target ≤ 1.5)\n`,
		)
		console.table(table)
		for (const row of table) console.log(`scale: ${row.page}  p50x=${row['p50 ×']} p99x=${row['p99 ×']}`)
		const exported = ({ lines, mb, seconds }: { seconds: number; lines: number; mb: number }) => `${lines} lines, ${mb} MB in ${seconds} s`
		if (run.exported.length > 0) console.log(`scale: orders_export demo=${exported(run.exported[0]!)} large=${exported(run.exported[1]!)}`)
		console.log(
			`scale: rss_peak_mb demo=${run.rssPeak[0]} large=${run.rssPeak[1]} (heap cap: ${process.env.npm_package_config_node_flags ?? 'package.json config.node_flags'})`,
		)
		console.log(`scale: server_alive_after demo=${run.alive[0]} large=${run.alive[1]}`)
	} finally {
		await demo.cleanUp()
		await large.cleanUp()
	}
}
