/**
 * One runtime under test, in a process of its own (started by bench.ts over IPC): a generated
 * PrismaClient (6.19.3 from app/data/generated, or 7.x from a scratch dir) with the driver adapter
 * of a chosen node_modules, tuned the way app/data/driver-adapter.server.ts tunes it. It runs a
 * workload for N seconds when told and answers with its latencies and its own CPU time.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Db, type Engine, type Fixture, makeOps, type Workload } from './workloads'

export type WorkerConfig = {
	arm: string
	engine: Engine
	url: string
	/** The generated client.ts to import. */
	clientModule: string
	/** A directory whose node_modules holds the driver adapter to use. */
	adapterBase: string
	fixtureFile: string
	/** Extra PrismaClient options (e.g. { queryPlanCacheMaxSize: 0 } on 7.x). */
	clientOptions?: Record<string, unknown>
}
export type RunRequest = { type: 'run'; workload: Workload; seconds: number; concurrency: number }
export type RunResult = {
	type: 'result'
	ops: number
	errors: number
	firstError?: string
	wallMs: number
	cpuUserUs: number
	cpuSystemUs: number
	/** Per-op latencies in µs, sorted. */
	medianUs: number
	p90Us: number
	p99Us: number
	rssMb: number
	heapUsedMb: number
}

const config = JSON.parse(process.env.PRISMA_RUNTIME_BENCH_WORKER ?? 'null') as WorkerConfig | null
if (!config || !process.send) throw new Error('worker.ts is started by bench.ts')
const send = (message: unknown) => process.send?.(message)

type AdapterClass = new (config: Record<string, unknown>) => { connect(): Promise<unknown> }

function adapterFor(engine: Engine, url: string, base: string): unknown {
	const require = createRequire(resolve(base, 'package.json'))
	if (engine === 'postgresql') {
		const { PrismaPg } = require('@prisma/adapter-pg') as { PrismaPg: AdapterClass }
		return new PrismaPg({ connectionString: url })
	}
	// 6.19 spells it PrismaBetterSQLite3, 7.x PrismaBetterSqlite3.
	const sqlite = require('@prisma/adapter-better-sqlite3') as Record<string, AdapterClass | undefined>
	const Base = (sqlite.PrismaBetterSqlite3 ?? sqlite.PrismaBetterSQLite3) as AdapterClass
	// The store's pragmas (driver-adapter.server.ts tunedSqlite), set as the connection opens.
	class TunedSqlite extends Base {
		override async connect() {
			const adapter = await super.connect()
			const client = (adapter as { client?: { pragma(source: string): unknown } }).client
			if (!client) throw new Error('The SQLite adapter no longer exposes its connection')
			client.pragma('journal_mode = WAL')
			client.pragma('synchronous = NORMAL')
			client.pragma('busy_timeout = 5000')
			return adapter
		}
	}
	return new TunedSqlite({ url })
}

const { PrismaClient } = (await import(pathToFileURL(config.clientModule).href)) as { PrismaClient: new (options: Record<string, unknown>) => Db }
const db = new PrismaClient({ adapter: adapterFor(config.engine, config.url, config.adapterBase), ...config.clientOptions })
const fixture = JSON.parse(readFileSync(config.fixtureFile, 'utf8')) as Fixture
const ops = makeOps(db, fixture, config.engine)

// Connect and run each shape once, so compilation of the first query is not in any round.
await db.$connect()
await ops.catalog()
await ops.session()
await ops.checkout(0)
send({ type: 'ready', version: (db as unknown as { _clientVersion?: string })._clientVersion ?? 'unknown' })

const quantile = (sorted: Float64Array, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

async function run({ workload, seconds, concurrency }: RunRequest): Promise<RunResult> {
	const op = ops[workload]
	let latencies = new Float64Array(1 << 16)
	let ops_ = 0
	let errors = 0
	let firstError: string | undefined
	const cpu0 = process.cpuUsage()
	const t0 = performance.now()
	const end = t0 + seconds * 1000
	const loop = async (worker: number) => {
		while (performance.now() < end) {
			const start = performance.now()
			try {
				await op(worker)
			} catch (error) {
				errors++
				firstError ??= String((error as Error).message ?? error).slice(0, 300)
				continue
			}
			if (ops_ === latencies.length) {
				const grown = new Float64Array(latencies.length * 2)
				grown.set(latencies)
				latencies = grown
			}
			latencies[ops_++] = (performance.now() - start) * 1000
		}
	}
	await Promise.all(Array.from({ length: concurrency }, (_, worker) => loop(worker)))
	const wallMs = performance.now() - t0
	const cpu = process.cpuUsage(cpu0)
	const sorted = latencies.subarray(0, ops_).sort()
	const memory = process.memoryUsage()
	return {
		type: 'result',
		ops: ops_,
		errors,
		firstError,
		wallMs,
		cpuUserUs: cpu.user,
		cpuSystemUs: cpu.system,
		medianUs: quantile(sorted, 0.5),
		p90Us: quantile(sorted, 0.9),
		p99Us: quantile(sorted, 0.99),
		rssMb: memory.rss / 2 ** 20,
		heapUsedMb: memory.heapUsed / 2 ** 20,
	}
}

process.on('message', (message: RunRequest | { type: 'exit' }) => {
	if (message.type === 'exit') {
		void db.$disconnect().finally(() => process.exit(0))
		return
	}
	run(message).then(send, (error: unknown) => send({ type: 'failed', message: String(error) }))
})
