/**
 * The database away while shoppers browse, add to carts and sign in [R124], on both engines:
 * PostgreSQL stopped (the suite's own cluster), SQLite held locked by another process past the
 * store's busy timeout. No request answers 500; what needs the database answers 503 with
 * Retry-After and says the store is briefly unavailable; everything works again afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { sqliteFile } from '../../app/data/driver-adapter.server'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { startPrivatePostgres } from '../helpers/private-postgres'
import { Guest } from '../helpers/shopper'
import { type Sample, failedSignIns, fetchStatus, figures, prepareDatabase, sleep, traffic, waitUntil, within } from './support'

const OUTAGE_MS = 8_000

type Outage = { url: string; begin(): void; end(): void; close(): void }

async function postgresOutage(): Promise<Outage> {
	const cluster = await startPrivatePostgres()
	return { url: cluster.url, begin: () => cluster.stop(), end: () => cluster.start(), close: () => cluster.close() }
}

/** Another process's write lock on the file: the store's writers wait out their busy timeout. */
function sqliteOutage(): Outage {
	const dir = mkdtempSync(path.join(tmpdir(), 'store-faults-db-'))
	const url = `file:${path.join(dir, 'store.db')}`
	let holder: DatabaseSync | undefined
	return {
		url,
		begin() {
			holder = new DatabaseSync(sqliteFile(url))
			holder.exec('BEGIN IMMEDIATE')
		},
		end() {
			holder?.exec('ROLLBACK')
			holder?.close()
			holder = undefined
		},
		close: () => rmSync(dir, { recursive: true, force: true }),
	}
}

describe.each([
	['postgresql', postgresOutage],
	['sqlite', async () => sqliteOutage()],
] as const)('the database away on %s [R124]', (engine, makeOutage) => {
	const cleanups: Array<() => Promise<void> | void> = []
	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	})

	it('answers 503 with Retry-After and an unavailable page, never 500, and serves again after [R124]', async () => {
		const outage = await makeOutage()
		cleanups.push(() => outage.close())
		const database = await prepareDatabase(outage.url)
		cleanups.push(() => database.db.$disconnect())
		const product = await createProduct(database.db, database.storeId, { stock: 100_000, title: 'Mug' })
		const store: StoreProcess = await startStoreProcess({ databaseUrl: outage.url, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())

		const run = traffic(
			{
				home: () => fetchStatus(`${store.origin}/`),
				page: () => fetchStatus(`${store.origin}/products/${product.slug}`),
				cart: () => new Guest(store.origin).send('/cart', { intent: 'add', productId: product.id, quantity: '1' }),
				signIn: failedSignIns(store.origin),
				healthz: () => fetchStatus(`${store.origin}/healthz`),
			},
			100,
		)
		await sleep(2_000)
		const down = Date.now()
		outage.begin()
		await sleep(OUTAGE_MS)
		const up = Date.now()
		outage.end()
		await waitUntil(
			'the store serves carts again',
			async () => (await new Guest(store.origin).send('/cart', { intent: 'add', productId: product.id, quantity: '1' })).status === 302,
		)
		const recovered = Date.now()
		await sleep(2_000)
		const samples = await run.stop()

		const show = (s: Sample) => `${s.label} ${s.status} ${s.retryAfter ?? '-'} ${s.body ?? ''}`
		// Never a 500 (nor any 5xx but the outage's 503), from any request, at any time.
		expect(samples.filter((s) => s.status >= 500 && s.status !== 503).map(show)).toEqual([])
		// Every 503 is the outage's (Retry-After and the page that says so), or the door's shedding [R125].
		const unavailable = samples.filter((s) => s.status === 503 && !/The store is busy/.test(s.body ?? ''))
		expect(unavailable.filter((s) => !/^\d+$/.test(s.retryAfter ?? '') || !/briefly unavailable/i.test(s.body ?? '')).map(show)).toEqual([])
		// Writes needing the database met the outage (on both engines).
		const cartsInOutage = within(samples, 'cart', down, up)
		expect(cartsInOutage.some((s) => s.status === 503)).toBe(true)
		// On SQLite a writer waits out its lock on the process's one thread (better-sqlite3 is
		// synchronous), so liveness too may wait that long: only PostgreSQL promises it here.
		if (engine === 'postgresql') expect(samples.filter((s) => s.label === 'healthz' && s.status !== 200).map(show)).toEqual([])
		// Before and after, the store works.
		expect(samples.filter((s) => s.at + s.ms < down && s.status >= 500).map(show)).toEqual([])
		expect(samples.filter((s) => s.at > recovered + 1_000 && s.status >= 500).map(show)).toEqual([])
		figures(`database-outage-${engine}`, {
			outageMs: up - down,
			unavailable: unavailable.length,
			byLabel: [...new Set(unavailable.map((s) => s.label))].join('+') || 'none',
			recoveryMs: recovered - up,
		})
	})
})
