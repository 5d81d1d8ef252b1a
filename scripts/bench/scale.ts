/**
 * `npm run bench -- --scale`: every page a real shop leans on, measured on a store of real size
 * and on one of demo size in the same run, with the ratio (large ÷ demo) of each page's p50 and
 * p99 and the server's peak memory. Both stores come from the same generator
 * (scripts/lib/scale-seed.ts); the large one is `--scale-database URL` (filled beforehand with
 * `npm run seed:scale`) or seeded here in a temporary folder.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDb } from '../../app/data/db.server'
import { COMMON_WORD, RARE_WORD } from '../lib/scale-rows'
import { cookieHeader } from '../../tests/helpers/http'
import { checkoutRow } from './checkout'
import { benchAdmin, measure, postForm, type Row, sampleRss, startStore } from './servers'

export type ScaleOptions = { seconds: number; connections: number; database?: string; size: { products: number; orders: number; customers: number } }
type Page = { title: string; path: string; method?: 'POST'; admin?: boolean; body?: string }
type Measured = { page: string; p50: number; p99: number; ok: number }

/** A store of `size` in a new SQLite file (its folder is removed by `cleanUp`). */
function seeded(size: ScaleOptions['size']) {
	const dir = mkdtempSync(join(tmpdir(), 'store-scale-'))
	const url = `file:${join(dir, 'store.db')}`
	const args = ['run', 'seed:scale', '--', '--products', String(size.products), '--orders', String(size.orders), '--customers', String(size.customers)]
	const run = spawnSync('npm', args, { env: { ...process.env, DATABASE_URL: url, UPLOAD_DIR: join(dir, 'uploads') }, stdio: ['ignore', 'inherit', 'inherit'] })
	if (run.status !== 0) throw new Error(`seed:scale failed for ${JSON.stringify(size)}`)
	return { url, cleanUp: () => rmSync(dir, { recursive: true, force: true }) }
}

/** What each page is asked for on this store: the same pages, this store's own rows. */
async function pagesOf(url: string): Promise<{ pages: Page[]; slug: string }> {
	const db = createDb(url)
	try {
		// A store measured before keeps the bench admin of that run, whose password was another:
		// start-up creates it anew with this run's (its activity entries keep their email).
		await db.user.deleteMany({ where: { email: benchAdmin.email } })
		const active = { status: 'active' }
		const [variants, single, collection, orders, products] = await Promise.all([
			db.product.findFirstOrThrow({ where: { ...active, optionNames: { not: '[]' } }, select: { slug: true } }),
			db.product.findFirstOrThrow({ where: { ...active, optionNames: '[]' }, select: { slug: true, id: true } }),
			db.collection.findFirstOrThrow({ orderBy: { position: 'asc' }, select: { slug: true } }),
			db.order.count(),
			db.product.count({ where: active }),
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
			{ title: '/admin/orders late page', path: `/admin/orders?page=${late(orders, 20)}`, admin: true },
			{ title: '/admin/orders/:number', path: `/admin/orders/${lastNumber - Math.floor(orders / 2)}`, admin: true },
			{ title: '/admin/customers', path: '/admin/customers', admin: true },
			{ title: '/admin/customers?q=', path: '/admin/customers?q=ada', admin: true },
			{ title: '/admin/products', path: '/admin/products', admin: true },
			{ title: '/admin/activity', path: '/admin/activity', admin: true },
		]
		return { pages, slug: single.slug }
	} finally {
		await db.$disconnect()
	}
}

async function measureStore(url: string, { seconds, connections }: ScaleOptions) {
	const { pages, slug } = await pagesOf(url)
	const server = await startStore({ DATABASE_URL: url, RATE_LIMITS: 'off', E2E_DEMO: '0' })
	const rss = sampleRss(server)
	try {
		const base = server.base
		const guest = cookieHeader((await fetch(`${base}/no-such-page`)).headers)
		const admin = await postForm(base, '/sign-in', { email: benchAdmin.email, password: benchAdmin.password })
		const rows: Measured[] = []
		for (const page of pages) {
			const headers: Record<string, string> = { cookie: page.admin ? admin : guest }
			if (page.method === 'POST') Object.assign(headers, { origin: base, 'content-type': 'application/x-www-form-urlencoded' })
			const options = { url: `${base}${page.path}`, method: page.method ?? ('GET' as const), headers, body: page.body, connections, duration: seconds }
			// A short warm-up run first (JIT, caches, connections), as every bench row has.
			await measure(page.title, { ...options, duration: 1 })
			rows.push(shown(await measure(page.title, options)))
		}
		rows.push(shown(await checkoutRow(server, { connections, count: 200, warmUp: 50, slug }), 'POST /checkout'))
		const exported = await exportAllOrders(base, admin)
		// Still serving after it: a heap too small for the export would have ended the process.
		const alive = (await fetch(`${base}/healthz`).catch(() => null))?.status === 200
		return { rows, rssPeak: rss.peak, exported, alive }
	} finally {
		rss.stop()
		await server.stop()
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

const shown = (row: Row, page = row.route): Measured => ({ page, p50: row['p50 ms'], p99: row['p99 ms'], ok: row['ok %'] })

export async function benchScale(options: ScaleOptions) {
	console.log('seeding the demo-size store (6 products, 20 Orders, 5 customers)…')
	const demo = seeded({ products: 6, orders: 20, customers: 5 })
	const large = options.database ? { url: options.database, cleanUp: () => {} } : seeded(options.size)
	try {
		const small = await measureStore(demo.url, options)
		const big = await measureStore(large.url, options)
		const ratio = (a: number, b: number) => Math.round((a / Math.max(0.01, b)) * 100) / 100
		const table = big.rows.map((row, i) => {
			const base = small.rows[i]!
			return {
				page: row.page,
				'demo p50': base.p50,
				'demo p99': base.p99,
				'large p50': row.p50,
				'large p99': row.p99,
				'p50 ×': ratio(row.p50, base.p50),
				'p99 ×': ratio(row.p99, base.p99),
				'ok %': row.ok,
			}
		})
		console.log(`\n${options.seconds}s per page, ${options.connections} connections; ms; × is large ÷ demo (target ≤ 1.5)\n`)
		console.table(table)
		for (const row of table) console.log(`scale: ${row.page}  p50x=${row['p50 ×']} p99x=${row['p99 ×']}`)
		const exported = (run: { exported: { seconds: number; lines: number; mb: number } }) =>
			`${run.exported.lines} lines, ${run.exported.mb} MB in ${run.exported.seconds} s`
		console.log(`scale: orders_export demo=${exported(small)} large=${exported(big)}`)
		console.log(
			`scale: rss_peak_mb demo=${small.rssPeak} large=${big.rssPeak} (heap cap: ${process.env.npm_package_config_node_flags ?? 'package.json config.node_flags'})`,
		)
		console.log(`scale: server_alive_after demo=${small.alive} large=${big.alive}`)
	} finally {
		demo.cleanUp()
		large.cleanUp()
	}
}
