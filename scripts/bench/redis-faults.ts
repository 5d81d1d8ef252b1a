/**
 * What a Redis fault costs a request (docs/decisions/017-rate-limits.md, [R54]): the built
 * store with no Redis, a healthy Redis, a hung one (SIGSTOP after start) and one that is down
 * at start, each a private redis-server on a free port (the shared 6379 is never touched).
 * Prints latency per row and the added p50 over no Redis and over a healthy Redis; asserts
 * nothing. Run by `npm run bench` (alone with `npm run bench -- --redis-faults`), or directly:
 * `tsx scripts/bench/redis-faults.ts [--seconds N --rounds N]` after `npm run build`.
 */
import { privateRedis } from '../../tests/helpers/redis'
import { type Server, startStore } from './servers'

type Row = { row: string; path: string; requests: number; 'p50 ms': number; 'p99 ms': number; 'max ms': number; 'non-2xx': number }

const GENEROUS = { RATE_LIMIT_GENERAL: '999999/60', RATE_LIMIT_AUTHENTICATION: '999999/60' }
const PATHS = ['/healthz', '/products/canvas-tote']
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const round = (ms: number) => Math.round(ms * 100) / 100

/** One client, back to back, for `seconds`: each request timed on its own (latency, not throughput). */
async function latencies(url: string, seconds: number) {
	const times: number[] = []
	let failed = 0
	const until = Date.now() + seconds * 1000
	while (Date.now() < until) {
		const started = performance.now()
		const response = await fetch(url)
		await response.arrayBuffer()
		times.push(performance.now() - started)
		if (!response.ok) failed++
	}
	times.sort((a, b) => a - b)
	const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN)
	return { requests: times.length, p50: at(0.5), p99: at(0.99), max: at(1), failed }
}

/**
 * All four stores run at once and are measured in interleaved rounds (no Redis, healthy,
 * hung, down, then again), so load from elsewhere on the machine falls on every row alike;
 * each figure is the median over the rounds.
 */
export async function benchRedisFaults({ seconds = 3, rounds = 5 }: { seconds?: number; rounds?: number } = {}) {
	const healthy = await privateRedis()
	const hung = await privateRedis()
	const absent = await privateRedis({ start: false })
	const stores: Array<[string, Server]> = []
	try {
		for (const [label, url] of [
			['no Redis', ''],
			['healthy Redis', healthy.url],
			['hung (SIGSTOP), once known', hung.url],
			['down at start', absent.url],
		] as const) {
			stores.push([label, await startStore({ ...GENEROUS, REDIS_URL: url })])
		}
		const hungStore = stores[2]![1]
		await latencies(`${hungStore.base}/healthz`, 1)
		hung.pause()
		// What requests pay while the store finds out (its probe: every 1 s, 500 ms to answer).
		const finding = await latencies(`${hungStore.base}/healthz`, 2)
		const samples = new Map<string, Array<Awaited<ReturnType<typeof latencies>>>>()
		for (let round = 0; round <= rounds; round++) {
			for (const [label, server] of stores) {
				for (const path of PATHS) {
					const measured = await latencies(`${server.base}${path}`, round === 0 ? 1 : seconds)
					// Round 0 warms every store up (JIT, connections, caches) and is not counted.
					if (round > 0) samples.set(`${label}\n${path}`, [...(samples.get(`${label}\n${path}`) ?? []), measured])
				}
			}
		}
		const table: Row[] = [
			{
				row: 'hung: first 2 s after SIGSTOP',
				path: '/healthz',
				requests: finding.requests,
				'p50 ms': finding.p50,
				'p99 ms': finding.p99,
				'max ms': finding.max,
				'non-2xx': finding.failed,
			},
		]
		for (const [key, runs] of samples) {
			const [row = '', path = ''] = key.split('\n')
			table.push({
				row,
				path,
				requests: runs.reduce((sum, run) => sum + run.requests, 0),
				'p50 ms': median(runs.map((run) => run.p50)),
				'p99 ms': median(runs.map((run) => run.p99)),
				'max ms': Math.max(...runs.map((run) => run.max)),
				'non-2xx': runs.reduce((sum, run) => sum + run.failed, 0),
			})
		}
		console.log(`\nRedis faults: one client, ${rounds} interleaved rounds of ${seconds}s per row, medians; General falls back to memory, caches are bypassed\n`)
		console.table(table)
		const p50 = (row: string, path: string) => table.find((r) => r.row === row && r.path === path)?.['p50 ms'] ?? Number.NaN
		for (const fault of ['hung (SIGSTOP), once known', 'down at start']) {
			for (const path of PATHS) {
				console.log(
					`redis-faults: ${fault} ${path} p50=${p50(fault, path)} ms, added over no Redis ${round(p50(fault, path) - p50('no Redis', path))} ms, over healthy Redis ${round(p50(fault, path) - p50('healthy Redis', path))} ms`,
				)
			}
		}
		return table
	} finally {
		for (const [, server] of stores) await server.stop()
		for (const redis of [healthy, hung, absent]) await redis.kill()
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	if (process.argv.includes('--help')) {
		console.log(
			'Usage: tsx scripts/bench/redis-faults.ts [--seconds N --rounds N] (after `npm run build`)\nPrints latency with no Redis, a healthy, a hung and a down-at-start Redis; asserts nothing.',
		)
		process.exit(0)
	}
	const arg = (name: string, fallback: number) => (process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : fallback)
	await benchRedisFaults({ seconds: arg('seconds', 3), rounds: arg('rounds', 5) })
}
