/**
 * The store at about three times what it can serve [R125] (docs/decisions/077): first its
 * capacity (home page, requests/s at 10 connections), then an open-loop arrival rate of three
 * times that from 200 connections. Prints what was admitted (2xx/3xx, with its p50/p99), what
 * was shed (503 "busy"), anything else (500s count here), and the server's peak RSS. Asserts
 * nothing. Run by `npm run bench` (alone with `npm run bench -- --overload`), or directly:
 * `tsx scripts/bench/overload.ts [--seconds N]` after `npm run build`.
 */
import autocannon from 'autocannon'
import { sampleRss, startStore } from './servers'

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

export async function benchOverload(seconds = 10, env: Record<string, string> = {}) {
	const store = await startStore({ RATE_LIMITS: 'off', ...env })
	try {
		const url = `${store.base}/`
		await autocannon({ url, connections: 4, duration: 2 })
		const capacity = await autocannon({ url, connections: 10, duration: seconds })
		const rate = Math.round(capacity.requests.average * 3)
		const rss = sampleRss(store)
		const admitted: number[] = []
		let shed = 0
		let other = 0
		const overload = await new Promise<autocannon.Result>((resolve, reject) => {
			const instance = autocannon({ url, connections: 200, overallRate: rate, duration: seconds, timeout: 30 }, (error: unknown, result) =>
				error ? reject(error) : resolve(result),
			)
			instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
				if (status < 400) admitted.push(ms)
				else if (status === 503) shed++
				else other++
			})
		})
		rss.stop()
		const peakMb = rss.peak
		admitted.sort((a, b) => a - b)
		const row = {
			capacityRps: Math.round(capacity.requests.average),
			capacityP99Ms: capacity.latency.p99,
			offeredRps: rate,
			admittedRps: Math.round(admitted.length / seconds),
			admittedP50Ms: Math.round(at(admitted, 0.5)),
			admittedP99Ms: Math.round(at(admitted, 0.99)),
			shed,
			other: other + overload.errors + overload.timeouts,
			rssPeakMb: peakMb,
		}
		console.log(
			`overload: ${Object.entries(row)
				.map(([key, value]) => `${key}=${value}`)
				.join(' ')}`,
		)
		return row
	} finally {
		await store.stop()
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const index = process.argv.indexOf('--seconds')
	const limit = process.argv.indexOf('--max-in-flight')
	await benchOverload(index > 0 ? Number(process.argv[index + 1]) : 10, limit > 0 ? { OVERLOAD_MAX_IN_FLIGHT: process.argv[limit + 1]! } : {})
}
