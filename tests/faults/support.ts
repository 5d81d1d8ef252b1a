/**
 * What every fault scenario shares: a database the scenario owns, traffic that keeps running
 * while a dependency fails, the outage window it is judged against, and the integrity checks
 * run straight on the database afterwards.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { Db } from '../../app/data/db.server'
import { createDb } from '../../app/data/db.server'
import { ensureRuntimeStore, runtimeStoreId } from '../../app/data/runtime-store.server'
import { migrateDatabase } from '../../server/migrate'
import { ADDRESS, Guest, idempotencyKeyOf } from '../helpers/shopper'

/** A migrated database with the runtime Store at `url` (a private cluster's, or a temp SQLite file). */
export async function prepareDatabase(url: string) {
	migrateDatabase(url, { quiet: true })
	const db = createDb(url)
	await ensureRuntimeStore(db)
	return { db, storeId: await runtimeStoreId(db) }
}

export type Sample = { label: string; at: number; status: number; ms: number; body?: string; retryAfter?: string | null }

/**
 * Runs each probe in its own loop until `stop()`: a request that fails to connect, or takes
 * longer than 10 s, is recorded as status 0 (the store did not answer).
 */
export function traffic(probes: Record<string, () => Promise<Response>>, pauseMs = 50) {
	const samples: Sample[] = []
	let running = true
	const loops = Object.entries(probes).map(async ([label, probe]) => {
		while (running) {
			const at = Date.now()
			let status = 0
			let body: string | undefined
			let retryAfter: string | null = null
			try {
				const response = await probe()
				status = response.status
				retryAfter = response.headers.get('retry-after')
				body = status >= 500 ? (await response.text()).slice(0, 200) : (await response.arrayBuffer(), undefined)
			} catch {
				status = 0
			}
			samples.push({ label, at, status, ms: Date.now() - at, body, retryAfter })
			await sleep(pauseMs)
		}
	})
	return {
		samples,
		async stop() {
			running = false
			await Promise.all(loops)
			return samples
		},
	}
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it holds; returns how long that took (ms), or fails after `limitMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, limitMs = 30_000, everyMs = 100) {
	const started = Date.now()
	for (;;) {
		if (await check().catch(() => false)) return Date.now() - started
		if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`)
		await sleep(everyMs)
	}
}

export const fetchStatus = (url: string, init?: RequestInit) => fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init })

export { GENEROUS_LIMITS } from '../helpers/generous-limits'

/** A sign-in that fails (an address with no account, a new one each time): one scrypt, answered 401. */
export function failedSignIns(origin: string) {
	let n = 0
	return () =>
		fetchStatus(`${origin}/sign-in`, {
			method: 'POST',
			headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ email: `nobody-${n++}@example.com`, password: 'not the password', redirectTo: '' }).toString(),
		})
}

/** The samples of `label` that started inside [from, to]. */
export const within = (samples: Sample[], label: string, from: number, to: number) => samples.filter((s) => s.label === label && s.at >= from && s.at <= to)

/** The samples (of `label`, or all) that were answered before `time`: wholly before an outage began. */
export const answeredBefore = (samples: Sample[], time: number, label?: string) => samples.filter((s) => (!label || s.label === label) && s.at + s.ms < time)

/** The server errors (5xx, or no answer) of `samples`, for a readable assertion message. */
export const serverErrors = (samples: Sample[]) =>
	samples.filter((s) => s.status >= 500 || s.status === 0).map((s) => `${s.label} ${s.status} ${s.body ?? ''}`.trim())

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!
}

/** One line the lead and CI logs can quote: `fault-figures: <scenario> key=value …`. */
export function figures(scenario: string, values: Record<string, number | string>) {
	console.info(
		`fault-figures: ${scenario} ${Object.entries(values)
			.map(([key, value]) => `${key}=${typeof value === 'number' ? Math.round(value * 100) / 100 : value}`)
			.join(' ')}`,
	)
}

/**
 * No lost or half-written Order: every Order of the Store has its lines and a total that is
 * their sum, and for each product stock + units sold on Orders that still hold stock (not
 * cancelled) equals the stock it started with.
 */
export async function expectOrdersWhole(db: Db, storeId: string, initialStock: Map<string, number>) {
	const orders = await db.order.findMany({
		where: { storeId },
		select: { number: true, status: true, subtotalMinor: true, lines: { select: { productId: true, quantity: true, lineTotalMinor: true } } },
	})
	for (const order of orders) {
		expect(order.lines.length, `Order #${order.number} has no lines`).toBeGreaterThan(0)
		expect(
			order.lines.reduce((sum, line) => sum + line.lineTotalMinor, 0),
			`Order #${order.number}`,
		).toBe(order.subtotalMinor)
	}
	const numbers = orders.map((order) => order.number)
	expect(new Set(numbers).size, 'order numbers are unique').toBe(numbers.length)
	for (const [productId, initial] of initialStock) {
		// Every product here is sold as one variant: its stock is the product's.
		const { _sum } = await db.productVariant.aggregate({ where: { productId }, _sum: { stock: true } })
		const stock = _sum.stock ?? 0
		const sold = orders
			.filter((order) => order.status !== 'cancelled')
			.flatMap((order) => order.lines)
			.filter((line) => line.productId === productId)
			.reduce((sum, line) => sum + line.quantity, 0)
		expect(stock + sold, `stock + sold of ${productId}`).toBe(initial)
	}
	return orders.length
}

/** No provider event recorded or applied twice: one inbox row per (Connection, event id). */
export async function expectEventsOnce(db: Db, storeId: string) {
	const rows = await db.providerEvent.findMany({ where: { storeId }, select: { connectionId: true, providerEventId: true } })
	const keys = rows.map((row) => `${row.connectionId}/${row.providerEventId}`)
	expect(new Set(keys).size, 'one inbox row per event').toBe(keys.length)
	return rows.length
}

/** No upload row without its file, and no temporary file left behind, under `dir`. */
export async function expectUploadsWhole(db: Db, storeId: string, dir: string) {
	const rows = await db.uploadedObject.findMany({ where: { storeId }, select: { key: true } })
	for (const row of rows) expect(existsSync(join(dir, row.key)), `file of ${row.key}`).toBe(true)
	const leftovers = existsSync(dir)
		? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && /\.tmp$|\.part$|^\.upload/.test(entry.name))
		: []
	expect(leftovers.map((entry) => entry.name)).toEqual([])
	return rows.length
}

/**
 * One guest's whole purchase over HTTP (add to cart, open checkout, submit), answered by the
 * first response that is not what a working store gives, or by the submit's own answer.
 * `resend`: how many more times the same submit (same idempotency key) is sent, as a browser
 * would, while its answer is lost (no answer, a balancer's 502) or shed (503, after its
 * Retry-After); `onResend` hears each reason (0 for no answer).
 */
export async function purchase(
	origin: string,
	productId: string,
	email: string,
	payment = 'offline',
	{ resend = 0, onResend = () => {} }: { resend?: number; onResend?: (status: number) => void } = {},
) {
	const guest = new Guest(origin)
	const added = await guest.send('/cart', { intent: 'add', productId, quantity: '1' })
	if (added.status !== 302) return added
	const page = await guest.send('/checkout')
	const html = await page.text()
	const idempotencyKey = idempotencyKeyOf(html)
	if (page.status !== 200 || !idempotencyKey) return new Response(html, { status: page.status === 200 ? 599 : page.status })
	const form = { email, ...ADDRESS, payment, idempotencyKey }
	for (let sent = 0; ; sent++) {
		const answer = await guest.send('/checkout', form).catch((error: unknown) => {
			if (sent >= resend) throw error
			return null
		})
		const status = answer?.status ?? 0
		if (sent >= resend || (status !== 0 && status !== 502 && status !== 503)) return answer!
		onResend(status)
		await answer?.arrayBuffer()
		await sleep(status === 503 ? Number(answer?.headers.get('retry-after') ?? 1) * 1000 : 200)
	}
}
