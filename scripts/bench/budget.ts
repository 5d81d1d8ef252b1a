/**
 * the performance budget: the store beside a bare React Router app on Express
 * (scripts/bench/baseline), same versions, same machine, same run, rounds interleaved
 * (baseline, store, baseline, store…). Prints min/median/max per row and the ratios, and
 * ends with the one `bench:` line. Asserts nothing: the targets are read from the line.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { cookieHeader } from '../../tests/helpers/http'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { checkoutBursts, checkoutRow } from './checkout'
import { closedLoop } from './closed-loop'
import { benchEvents } from './events'
import { benchAdmin, keepAlivePoster, measure, postForm, type Row, sampleRss, type Server, startBaseline, startStore } from './servers'

type Options = { seconds: number; rounds: number; connections: number; loadSeconds: number }

const STORM = 8

/** Generous limits: the limiter runs (its cost is in the budget) but never refuses the bench. */
const LIMITS = {
	RATE_LIMIT_GENERAL: '999999/1',
	RATE_LIMIT_ADMIN: '999999/1',
	RATE_LIMIT_AUTHENTICATION: '999999/1',
	RATE_LIMIT_ACCOUNT: '999999/1',
	RATE_LIMIT_ACCOUNT_NEW_DEVICES: '999999/1',
	RATE_LIMIT_DEVICE: '999999/1',
	RATE_LIMIT_SENSITIVE: '999999/1',
}

export function buildBaseline() {
	execFileSync('npx', ['react-router', 'build'], {
		cwd: 'scripts/bench/baseline',
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, NODE_ENV: 'production' },
	})
}

const stats = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	return { min: sorted[0] ?? Number.NaN, median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN }
}
const fmt = (values: number[]) => {
	const { min, median, max } = stats(values)
	return `${min} / ${median} / ${max}`
}
const ratio = (a: number, b: number) => Math.round((a / Math.max(1e-9, b)) * 100) / 100

/**
 * Sign-ins counted by the loop that counts raw scrypt derivations (closed-loop.ts), so the
 * ratio compares like with like. (autocannon's per-second average leaves out the requests still
 * in flight when the row ends: eight sign-ins of ~0.5 s each, several percent of a 5 s row.)
 *
 * The client is node:http on a keep-alive agent, not fetch (keepAlivePoster): raw scrypt pays
 * for no client at all.
 */
async function signInRate(url: string, signIn: { headers: Record<string, string>; body: string }, seconds: number, concurrency: number): Promise<Row> {
	const latencies: number[] = []
	let refused = 0
	const client = keepAlivePoster(concurrency)
	const post = async () => (await client.post(url, signIn.headers, signIn.body)).status
	try {
		const rate = await closedLoop(seconds, concurrency, async () => {
			const sent = performance.now()
			const status = await post()
			latencies.push(performance.now() - sent)
			if (status !== 302) refused++
		})
		if (refused > 0) console.warn(`bench: ${refused} of ${latencies.length} sign-ins were not answered 302; the sign-in rate is not comparable`)
		const sorted = latencies.sort((a, b) => a - b)
		const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN)
		return {
			route: url,
			'req/s': Math.round(rate * 100) / 100,
			'p50 ms': at(0.5),
			'p99 ms': at(0.99),
			'ok %': Math.round(((sorted.length - refused) / Math.max(1, sorted.length)) * 1000) / 10,
		}
	} finally {
		client.close()
	}
}

/** The store's allocator settings (package.json config): what `npm start` runs node with. */
function storeAllocator(): Record<string, string> {
	const { config } = JSON.parse(readFileSync('package.json', 'utf8'))
	return { MALLOC_ARENA_MAX: config.malloc_arena_max, GLIBC_TUNABLES: config.glibc_tunables }
}

/**
 * Raw node:crypto scrypt verifies/s in a process of its own. `allocator` undefined: node as it
 * comes (the reference; any allocator settings of the bench's own environment are
 * removed). Otherwise with those settings, to show how much of the sign-in ratio is the store's
 * own overhead and how much is scrypt made cheaper (docs/decisions/028, fourth pass).
 */
function rawScrypt(seconds: number, concurrency: number, allocator?: Record<string, string>) {
	const { MALLOC_ARENA_MAX: _arenas, GLIBC_TUNABLES: _tunables, ...env } = process.env
	const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/scrypt-raw.ts', String(seconds), String(concurrency)], {
		encoding: 'utf8',
		env: { ...env, ...allocator },
	})
	return Number(run.stdout.trim())
}

export async function benchBudget(options: Options) {
	const { seconds, rounds, connections } = options
	const store = await startStore(LIMITS)
	const storeRss = sampleRss(store)
	const baseline = await startBaseline()
	const baselineRss = sampleRss(baseline)
	const atStart = { store: store.rssMb(), baseline: baseline.rssMb() }
	try {
		const first = await fetch(`${store.base}/`)
		const guest = cookieHeader(first.headers)
		const cart = await cartOfThree(store)
		const adminCookie = await postForm(store.base, '/sign-in', benchAdmin)
		const collection = await kitchenCollection(store, adminCookie)
		const customer = { name: 'Bench Shopper', email: 'budget-shopper@example.com', password: `budget-${Date.now()}-Passphrase` }
		await postForm(store.base, '/sign-up', customer)
		// A returning shopper signs in: the browser already holds its guestId cookie.
		const signIn = {
			method: 'POST' as const,
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: store.base, cookie: guest },
			body: new URLSearchParams({ email: customer.email, password: customer.password }).toString(),
		}

		// Same footing: a warm-up (JIT, connections, caches) on each before anything counts.
		for (const base of [baseline.base, store.base]) {
			await autocannon({ url: `${base}/products/canvas-tote`, connections, duration: 2, headers: { cookie: guest } })
			await autocannon({ url: `${base}/`, connections, duration: 2, headers: { cookie: guest } })
			await autocannon({ url: `${base}${SEARCH}`, connections, duration: 1, headers: { cookie: guest } })
			await autocannon({ url: `${base}${collection}`, connections, duration: 1, headers: { cookie: guest } })
		}
		await autocannon({ url: `${store.base}/sign-in`, connections: STORM, duration: 2, ...signIn })

		const pageRows = {
			home: { baseline: [] as Row[], store: [] as Row[], firstVisit: [] as Row[] },
			product: { baseline: [] as Row[], store: [] as Row[], firstVisit: [] as Row[] },
		}
		// The catalog's other pages, as a returning shopper reads them (the first visit's extra cost
		// is the guest cookie, measured on the rows above).
		const catalogRows = {
			search: { baseline: [] as Row[], store: [] as Row[] },
			collection: { baseline: [] as Row[], store: [] as Row[] },
		}
		const storeOnly: Record<string, Row[]> = { cart: [], notFound: [], adminOrders: [], signIn: [] }
		const scrypt: number[] = []
		const scryptSameAllocator: number[] = []
		const run = (url: string, cookie = '', extra: Partial<autocannon.Options> = {}) =>
			measure(url, { url, connections, duration: seconds, headers: cookie ? { cookie } : {}, ...extra })

		for (let round = 0; round < rounds; round++) {
			// The baseline sets no cookie, so its one row is the reference for both kinds of visit.
			// A first visit sends no cookie: every new shopper and every crawler gets a new guestId.
			pageRows.home.baseline.push(await run(`${baseline.base}/`))
			pageRows.home.store.push(await run(`${store.base}/`, guest))
			pageRows.home.firstVisit.push(await run(`${store.base}/`))
			pageRows.product.baseline.push(await run(`${baseline.base}/products/canvas-tote`))
			pageRows.product.store.push(await run(`${store.base}/products/canvas-tote`, guest))
			pageRows.product.firstVisit.push(await run(`${store.base}/products/canvas-tote`))
			catalogRows.search.baseline.push(await run(`${baseline.base}${SEARCH}`))
			catalogRows.search.store.push(await run(`${store.base}${SEARCH}`, guest))
			catalogRows.collection.baseline.push(await run(`${baseline.base}${collection}`))
			catalogRows.collection.store.push(await run(`${store.base}${collection}`, guest))
			storeOnly.cart!.push(await run(`${store.base}/cart`, cart))
			storeOnly.notFound!.push(await run(`${store.base}/no-such-page`, guest))
			storeOnly.adminOrders!.push(await run(`${store.base}/admin/orders`, adminCookie))
			scryptSameAllocator.push(rawScrypt(seconds, STORM, storeAllocator()))
			scrypt.push(rawScrypt(seconds, STORM))
			storeOnly.signIn!.push(await signInRate(`${store.base}/sign-in`, signIn, seconds, STORM))
		}

		const reqs = (rows: Row[]) => rows.map((row) => row['req/s'])
		// Every ratio pairs a store row with the baseline (or raw scrypt) row measured just before it,
		// in the same round, and takes the median over rounds: this machine's speed drifts by ±20 %
		// within minutes, and a back-to-back pair shares the same moment.
		const roundRatios = (store: number[], reference: number[]) => store.map((value, i) => ratio(value, reference[i] ?? Number.NaN))
		const pairedRatio = (store: number[], reference: number[]) => stats(roundRatios(store, reference)).median
		const signInRatios = roundRatios(reqs(storeOnly.signIn!), scrypt)
		const p99s = (rows: Row[]) => rows.map((row) => row['p99 ms'])
		const table = [
			...(['home', 'product'] as const).flatMap((name) => {
				const { baseline: b, store: s, firstVisit: f } = pageRows[name]
				const label = name === 'home' ? 'GET / (guest)' : 'GET /products/:slug (guest)'
				const storeRow = (kind: string, rows: Row[]) => ({
					row: `${label}: store, ${kind}`,
					'req/s min/med/max': fmt(reqs(rows)),
					'p99 ms min/med/max': fmt(p99s(rows)),
					ratio: `req/s ${pairedRatio(reqs(rows), reqs(b))}, p99 ${pairedRatio(p99s(rows), p99s(b))}`,
				})
				return [
					{ row: `${label}: baseline`, 'req/s min/med/max': fmt(reqs(b)), 'p99 ms min/med/max': fmt(p99s(b)), ratio: '' },
					storeRow('returning (sends its guestId)', s),
					storeRow('first visit (no cookie)', f),
				]
			}),
			...(
				[
					['GET /search?q=linen (guest)', catalogRows.search],
					['GET /collections/kitchen (guest, 3 products)', catalogRows.collection],
				] as const
			).flatMap(([label, { baseline: b, store: s }]) => [
				{ row: `${label}: baseline`, 'req/s min/med/max': fmt(reqs(b)), 'p99 ms min/med/max': fmt(p99s(b)), ratio: '' },
				{
					row: `${label}: store, returning`,
					'req/s min/med/max': fmt(reqs(s)),
					'p99 ms min/med/max': fmt(p99s(s)),
					ratio: `req/s ${pairedRatio(reqs(s), reqs(b))}, p99 ${pairedRatio(p99s(s), p99s(b))}`,
				},
			]),
			...(
				[
					['GET /cart (3 lines)', storeOnly.cart!],
					['GET /no-such-page (404)', storeOnly.notFound!],
					['GET /admin/orders (admin)', storeOnly.adminOrders!],
					[`POST /sign-in (${STORM} at once)`, storeOnly.signIn!],
				] as const
			).map(([row, rows]) => ({ row: `${row}: store`, 'req/s min/med/max': fmt(reqs(rows)), 'p99 ms min/med/max': fmt(p99s(rows)), ratio: '' })),
			{
				row: `raw node:crypto scrypt (${STORM} at once)`,
				'req/s min/med/max': fmt(scrypt),
				'p99 ms min/med/max': '',
				ratio: `sign-in/scrypt per round ${fmt(signInRatios)}`,
			},
			{
				row: `raw scrypt, the store's allocator settings`,
				'req/s min/med/max': fmt(scryptSameAllocator),
				'p99 ms min/med/max': '',
				ratio: `sign-in/this ${pairedRatio(reqs(storeOnly.signIn!), scryptSameAllocator)} (the store's own overhead)`,
			},
		]
		console.log(`\nperformance budget: ${rounds} interleaved rounds of ${seconds}s, ${connections} connections\n`)
		console.table(table)

		const storm = await stormRows(store, signIn, seconds)
		console.log(`\nduring a sign-in storm (${STORM} sign-ins at once) vs idle, 2 connections per row\n`)
		console.table(storm.rows)

		const memory = await loadThenStorm(store, baseline, { guest, cart, signIn, seconds: options.loadSeconds })
		storeRss.stop()
		baselineRss.stop()
		const rssPeak = Math.max(storeRss.peak, memory.storePeak)
		console.log(`\nmemory: ${options.loadSeconds}s of pages at 50 connections, then a ${seconds}s sign-in storm\n`)
		console.table([
			{
				server: 'store',
				'at start MiB': atStart.store,
				'before the load MiB': memory.storeIdle,
				'peak MiB (load + storm)': memory.storePeak,
				'peak MiB (whole run)': rssPeak,
				'settled MiB (10 s after)': memory.storeSettled,
			},
			{
				server: 'baseline',
				'at start MiB': atStart.baseline,
				'before the load MiB': memory.baselineIdle,
				'peak MiB (load + storm)': memory.baselinePeak,
				'peak MiB (whole run)': Math.max(baselineRss.peak, memory.baselinePeak),
				'settled MiB (10 s after)': memory.baselineSettled,
			},
		])

		const engine = store.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'
		const checkout = await checkoutRow(store, { connections })
		const bursts = await checkoutBurstsOnPostgres()
		const ingest = await benchEvents(LIMITS)
		console.log(
			`\ncheckout: ${connections} connections on ${engine}; ${bursts.at} submits at the same instant on PostgreSQL, ${bursts.submits / bursts.at} times\n`,
		)
		console.table([
			{
				row: `POST /checkout, ${engine}, ${connections} connections`,
				'req/s': checkout['req/s'],
				'p50 ms': checkout['p50 ms'],
				'p99 ms': checkout['p99 ms'],
				result: checkout.route,
			},
			{
				row: `POST /checkout, PostgreSQL, ${bursts.at} at once`,
				'req/s': bursts.ordersPerSecond,
				'p50 ms': bursts.p50,
				'p99 ms': bursts.max,
				result: `${bursts.placed} of ${bursts.submits} placed, ${bursts.errors} errors`,
			},
		])
		console.log(
			'\nprovider events (intake: each event delivered 10 times, shuffled, 10 at a time, through the handler in this process or POSTed to the built server, whose worker applies them; apply: the event worker over events kept)\n',
		)
		console.table(ingest)
		const ingestRate = (engine: string, path: string) => ingest.find((row) => row.engine === engine && row.path === path)?.['per s']

		const line = [
			`page/baseline=${pairedRatio(reqs(pageRows.home.store), reqs(pageRows.home.baseline))}`,
			`page_first/baseline=${pairedRatio(reqs(pageRows.home.firstVisit), reqs(pageRows.home.baseline))}`,
			`product/baseline=${pairedRatio(reqs(pageRows.product.store), reqs(pageRows.product.baseline))}`,
			`product_first/baseline=${pairedRatio(reqs(pageRows.product.firstVisit), reqs(pageRows.product.baseline))}`,
			`page_p99x=${pairedRatio(p99s(pageRows.home.firstVisit), p99s(pageRows.home.baseline))}`,
			`page_returning_p99x=${pairedRatio(p99s(pageRows.home.store), p99s(pageRows.home.baseline))}`,
			`product_p99x=${pairedRatio(p99s(pageRows.product.firstVisit), p99s(pageRows.product.baseline))}`,
			`product_returning_p99x=${pairedRatio(p99s(pageRows.product.store), p99s(pageRows.product.baseline))}`,
			`search/baseline=${pairedRatio(reqs(catalogRows.search.store), reqs(catalogRows.search.baseline))}`,
			`search_p99x=${pairedRatio(p99s(catalogRows.search.store), p99s(catalogRows.search.baseline))}`,
			`collection/baseline=${pairedRatio(reqs(catalogRows.collection.store), reqs(catalogRows.collection.baseline))}`,
			`collection_p99x=${pairedRatio(p99s(catalogRows.collection.store), p99s(catalogRows.collection.baseline))}`,
			`signin/scrypt=${pairedRatio(reqs(storeOnly.signIn!), scrypt)}`,
			`storm_healthz_p99_ms=${storm.healthzP99}`,
			`storm_over_idle_ms=${storm.rows.map((row) => row['p99 above idle ms']).join('/')}`,
			`rss_peak_mb=${rssPeak}`,
			`rss_load_storm_mb=${memory.storePeak}`,
			`rss_settled_mb=${memory.storeSettled}`,
			`checkout_p50_ms=${checkout['p50 ms']}(${engine})`,
			`pg_checkouts_${bursts.at}_errors=${bursts.errors}`,
			`pg_orders_per_s=${bursts.ordersPerSecond}`,
			`ingest_sqlite_per_s=${ingestRate('SQLite', 'intake, handler')}`,
			`ingest_pg_per_s=${ingestRate('PostgreSQL', 'intake, handler')}`,
			`ingest_http_sqlite_per_s=${ingestRate('SQLite', 'intake, HTTP')}`,
			`ingest_http_pg_per_s=${ingestRate('PostgreSQL', 'intake, HTTP')}`,
			`apply_sqlite_per_s=${ingestRate('SQLite', 'apply')}`,
			`apply_pg_per_s=${ingestRate('PostgreSQL', 'apply')}`,
			`ingest_double_applies=${ingest.reduce((sum, row) => sum + row['double applies'], 0)}`,
		].join(' ')
		return { line }
	} finally {
		storeRss.stop()
		baselineRss.stop()
		await Promise.all([store.stop(), baseline.stop()])
	}
}

/** The PostgreSQL checkout bursts on a store of their own, on a fresh database dropped after. */
async function checkoutBurstsOnPostgres() {
	const database = await createTestDatabase('store_bench_checkout')
	const store = await startStore({ ...LIMITS, DATABASE_URL: database.url })
	try {
		return await checkoutBursts(store)
	} finally {
		await store.stop()
		await dropTestDatabase(database.name)
	}
}

/** A search that finds one product in each app (the store's full-text index, the baseline's filter). */
const SEARCH = '/search?q=linen'

/**
 * The store's "kitchen" collection of three demo products, made through Store Admin's own forms;
 * the baseline has one of three too (scripts/bench/baseline/app/catalog.ts). Returns its path.
 */
async function kitchenCollection(store: Server, adminCookie: string) {
	const post = async (path: string, fields: Record<string, string>) => {
		const response = await fetch(`${store.base}${path}`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie: adminCookie, origin: store.base },
			body: new URLSearchParams(fields),
		})
		if (response.status !== 302) throw new Error(`${path} answered ${response.status}`)
		return response.headers.get('location') ?? ''
	}
	const at = await post('/admin/collections', { title: 'Kitchen', slug: 'kitchen', description: '' })
	for (const slug of ['enamel-mug', 'linen-napkins', 'field-notebook']) {
		const html = await (await fetch(`${store.base}/products/${slug}`)).text()
		await post(`${at}?intent=add`, { productId: /name="productId" value="([^"]+)"/.exec(html)?.[1] ?? '' })
	}
	return '/collections/kitchen'
}

async function cartOfThree(store: Server) {
	const cookie = cookieHeader((await fetch(`${store.base}/`)).headers)
	for (const slug of ['canvas-tote', 'enamel-mug', 'field-notebook']) {
		const html = await (await fetch(`${store.base}/products/${slug}`, { headers: { cookie } })).text()
		const productId = /name="productId" value="([^"]+)"/.exec(html)?.[1] ?? ''
		const added = await fetch(`${store.base}/cart`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie, origin: store.base },
			body: new URLSearchParams({ intent: 'add', productId, quantity: '1' }),
		})
		if (added.status !== 302 && added.status !== 303) throw new Error(`adding ${slug} answered ${added.status}`)
	}
	return cookie
}

/** /healthz, a static file and a catalog page: idle, then while STORM sign-ins run at once. */
async function stormRows(store: Server, signIn: Partial<autocannon.Options>, seconds: number) {
	const targets = [
		['GET /healthz', `${store.base}/healthz`],
		['GET /favicon.svg (static)', `${store.base}/favicon.svg`],
		['GET / (catalog page)', `${store.base}/`],
	] as const
	const probe = (url: string) => measure(url, { url, connections: 2, duration: seconds })
	const idle: Row[] = []
	for (const [, url] of targets) idle.push(await probe(url))
	const stormy: Row[] = []
	for (const [, url] of targets) {
		const storm = autocannon({ url: `${store.base}/sign-in`, connections: STORM, duration: seconds + 2, ...signIn })
		await new Promise((resolve) => setTimeout(resolve, 1000))
		stormy.push(await probe(url))
		await storm
	}
	const rows = targets.map(([label], i) => ({
		row: label,
		'idle p50 ms': idle[i]!['p50 ms'],
		'idle p99 ms': idle[i]!['p99 ms'],
		'storm p50 ms': stormy[i]!['p50 ms'],
		'storm p99 ms': stormy[i]!['p99 ms'],
		'p99 above idle ms': stormy[i]!['p99 ms'] - idle[i]!['p99 ms'],
	}))
	return { rows, healthzP99: stormy[0]!['p99 ms'] }
}

/** 60 s of pages at 50 connections (a mix of home, product and cart), then a sign-in storm. */
async function loadThenStorm(
	store: Server,
	baseline: Server,
	{ guest, cart, signIn, seconds }: { guest: string; cart: string; signIn: Partial<autocannon.Options>; seconds: number },
) {
	const storeIdle = store.rssMb()
	const baselineIdle = baseline.rssMb()
	const storeSample = sampleRss(store)
	const baselineSample = sampleRss(baseline)
	const pages = (base: string, third: string, cookies: [string, string]) =>
		autocannon({
			url: base,
			connections: 50,
			duration: seconds,
			requests: [
				{ method: 'GET', path: '/', headers: { cookie: cookies[0] } },
				{ method: 'GET', path: '/products/canvas-tote', headers: { cookie: cookies[0] } },
				{ method: 'GET', path: third, headers: { cookie: cookies[1] } },
			],
		})
	await pages(store.base, '/cart', [guest, cart])
	await autocannon({ url: `${store.base}/sign-in`, connections: STORM, duration: 10, ...signIn })
	// The baseline has no cart: a second product page stands in for it.
	await pages(baseline.base, '/products/enamel-mug', ['', ''])
	await new Promise((resolve) => setTimeout(resolve, 10_000))
	storeSample.stop()
	baselineSample.stop()
	return {
		storeIdle,
		baselineIdle,
		storePeak: storeSample.peak,
		baselinePeak: baselineSample.peak,
		storeSettled: store.rssMb(),
		baselineSettled: baseline.rssMb(),
	}
}
