/**
 * Prisma client RUNTIME comparison on the store's hot query shapes (README.md beside this file).
 * Makes a fresh SQLite file and/or a scratch PostgreSQL database, migrates them with the repo's
 * own `prisma migrate deploy` (6.19.3), seeds them (seed.ts), then starts one worker process per
 * runtime ("arm") against the SAME database and runs every workload in interleaved rounds:
 * round r starts with arm r mod n (A,B,C / B,C,A / …), one arm running at a time.
 * Prints a table and writes all per-round figures as JSON. Drops what it created.
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestDatabase, dropTestDatabase } from '../../../tests/helpers/postgres'
import { seed } from './seed'
import type { RunResult, WorkerConfig } from './worker'
import type { Engine, Workload } from './workloads'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const REPO = resolve(HERE, '../../..')

const argv = process.argv.slice(2)
const option = (name: string, fallback: string) => {
	const index = argv.indexOf(`--${name}`)
	return index >= 0 ? (argv[index + 1] ?? fallback) : fallback
}
if (argv.includes('--help')) {
	console.log(`Usage: node --import tsx scripts/bench/prisma-runtime/bench.ts --p7 DIR [options]
  --p7 DIR            scratch dir holding prisma/@prisma/client 7.x, its adapters and generated/{sqlite,postgresql}
  --engines LIST      sqlite,postgresql (default both)
  --arms LIST         6.19.3,7.x,7.x-repo-adapters (default), also 7.x-no-plan-cache (see README)
  --rounds N          rounds per workload (default 5)
  --seconds N         seconds per arm per round (default 3)
  --warmup N          seconds per arm before round 1, discarded (default 1)
  --concurrency LIST  concurrencies of the PostgreSQL checkout (default 1,10)
  --out FILE          JSON of every round (default /tmp/prisma-runtime-bench-<time>.json)
  --no-store-flags    run workers without the store's production node flags (package.json config)`)
	process.exit(0)
}
const P7 = resolve(option('p7', '/tmp/prisma7'))
const engines = option('engines', 'sqlite,postgresql').split(',') as Engine[]
const armNames = option('arms', '6.19.3,7.x,7.x-repo-adapters').split(',')
const rounds = Number(option('rounds', '5'))
const seconds = Number(option('seconds', '3'))
const warmup = Number(option('warmup', '1'))
const pgConcurrency = option('concurrency', '1,10').split(',').map(Number)
const out = option('out', `/tmp/prisma-runtime-bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)

const repoPackage = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { config: Record<string, string> }
const storeFlags = argv.includes('--no-store-flags') ? [] : (repoPackage.config.node_flags ?? '').split(' ').filter(Boolean)
const versionOf = (base: string, name: string) => {
	try {
		return (JSON.parse(readFileSync(join(base, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
	} catch {
		return 'missing'
	}
}

/** Which client and which adapter node_modules each arm uses. */
function armConfig(arm: string, engine: Engine): Pick<WorkerConfig, 'clientModule' | 'adapterBase' | 'clientOptions'> {
	const client = (base: string) => join(base, engine === 'sqlite' ? 'generated/sqlite/client.ts' : 'generated/postgresql/client.ts')
	if (arm === '6.19.3') return { clientModule: client(join(REPO, 'app/data')), adapterBase: REPO }
	if (arm === '7.x') return { clientModule: client(P7), adapterBase: P7 }
	if (arm === '7.x-repo-adapters') return { clientModule: client(P7), adapterBase: REPO }
	// 7.x caches a plan per query shape (parameterized); 0 turns the cache off, to see what it is worth.
	if (arm === '7.x-no-plan-cache') return { clientModule: client(P7), adapterBase: P7, clientOptions: { queryPlanCacheMaxSize: 0 } }
	throw new Error(`unknown arm ${arm}`)
}

type Row = { engine: Engine; workload: Workload; concurrency: number; arm: string; round: number; load1: number } & Omit<RunResult, 'type'>

const rows: Row[] = []
const cleanups: Array<() => Promise<void> | void> = []

function migrate(url: string) {
	const result = spawnSync('npx', ['prisma', 'migrate', 'deploy'], { cwd: REPO, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' })
	if (result.status !== 0) throw new Error(`migrate deploy failed for ${url}:\n${result.stdout}\n${result.stderr}`)
}

type Worker = { arm: string; child: ChildProcess; version: string; pending?: (message: RunResult) => void }

function startWorker(config: WorkerConfig): Promise<Worker> {
	return new Promise((resolveWorker, reject) => {
		const child = fork(join(HERE, 'worker.ts'), [], {
			cwd: REPO,
			execArgv: ['--import', 'tsx', ...storeFlags],
			env: {
				...process.env,
				NODE_ENV: 'production',
				MALLOC_ARENA_MAX: repoPackage.config.malloc_arena_max ?? '1',
				PRISMA_RUNTIME_BENCH_WORKER: JSON.stringify(config),
			},
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		})
		const worker: Worker = { arm: config.arm, child, version: '' }
		child.on('message', (raw) => {
			const message = raw as { type: 'ready' | 'failed' | 'result'; version?: string; message?: string }
			if (message.type === 'ready') {
				worker.version = message.version ?? ''
				resolveWorker(worker)
			} else if (message.type === 'failed') {
				reject(new Error(`${config.arm}: ${message.message}`))
			} else if (message.type === 'result') {
				const pending = worker.pending
				worker.pending = undefined
				pending?.(raw as RunResult)
			}
		})
		child.on('exit', (code) => {
			if (code !== 0) reject(new Error(`worker ${config.arm} exited with ${code}`))
		})
	})
}

function runOn(worker: Worker, workload: Workload, concurrency: number, secs: number): Promise<RunResult> {
	return new Promise((resolveRun) => {
		worker.pending = resolveRun
		worker.child.send({ type: 'run', workload, seconds: secs, concurrency })
	})
}

async function stopWorker(worker: Worker) {
	await new Promise<void>((done) => {
		worker.child.once('exit', () => done())
		worker.child.send({ type: 'exit' })
		setTimeout(() => {
			worker.child.kill()
			done()
		}, 10_000).unref()
	})
}

async function benchEngine(engine: Engine) {
	let url: string
	if (engine === 'sqlite') {
		const dir = mkdtempSync(join(tmpdir(), 'prisma-runtime-bench-'))
		cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
		url = `file:${join(dir, 'bench.db')}`
	} else {
		const database = await createTestDatabase('prisma_runtime_bench')
		cleanups.push(() => dropTestDatabase(database.name))
		url = database.url
	}
	console.log(`\n== ${engine}: ${url}`)
	migrate(url)
	const concurrencies = engine === 'postgresql' ? pgConcurrency : [1]
	const fixture = await seed(url, Math.max(...concurrencies))
	const fixtureFile = join(tmpdir(), `prisma-runtime-bench-fixture-${process.pid}-${engine}.json`)
	writeFileSync(fixtureFile, JSON.stringify(fixture))
	cleanups.push(() => rmSync(fixtureFile, { force: true }))

	const workers: Worker[] = []
	for (const arm of armNames) workers.push(await startWorker({ arm, engine, url, fixtureFile, ...armConfig(arm, engine) }))
	for (const worker of workers) console.log(`  ${worker.arm}: client ${worker.version} (pid ${worker.child.pid})`)
	try {
		const plans: Array<{ workload: Workload; concurrency: number }> = [
			{ workload: 'catalog', concurrency: 1 },
			{ workload: 'session', concurrency: 1 },
			...concurrencies.map((concurrency) => ({ workload: 'checkout' as const, concurrency })),
		]
		for (const { workload, concurrency } of plans) {
			for (const worker of workers) await runOn(worker, workload, concurrency, warmup)
			for (let round = 0; round < rounds; round++) {
				for (let k = 0; k < workers.length; k++) {
					const worker = workers[(round + k) % workers.length] as Worker
					const load1 = loadavg()[0] ?? 0
					const { type: _type, ...result } = await runOn(worker, workload, concurrency, seconds)
					rows.push({ engine, workload, concurrency, arm: worker.arm, round, load1, ...result })
					if (result.errors) console.log(`  ! ${worker.arm} ${workload}: ${result.errors} errors, first: ${result.firstError}`)
				}
			}
			printTable(rows.filter((row) => row.engine === engine && row.workload === workload && row.concurrency === concurrency))
		}
	} finally {
		for (const worker of workers) await stopWorker(worker)
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = sorted.length >> 1
	return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
const fmt = (value: number, digits = 0) => value.toFixed(digits)
const spread = (values: number[], digits = 0) => `${fmt(median(values), digits)} [${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}]`

function summary(group: Row[]) {
	const latency = group.map((row) => row.medianUs)
	const opsPerSecond = group.map((row) => row.ops / (row.wallMs / 1000))
	const cpuPerOp = group.map((row) => (row.cpuUserUs + row.cpuSystemUs) / row.ops)
	return { latency, opsPerSecond, cpuPerOp, p99: group.map((row) => row.p99Us) }
}

function printTable(group: Row[]) {
	const first = group[0]
	if (!first) return
	console.log(`\n  ${first.engine} / ${first.workload} / concurrency ${first.concurrency}: median over ${rounds} rounds [min–max of rounds]`)
	console.log(`  ${'arm'.padEnd(20)}${'median latency µs'.padEnd(24)}${'p99 µs'.padEnd(24)}${'ops/s'.padEnd(24)}${'CPU µs/op'.padEnd(24)}errors`)
	for (const arm of armNames) {
		const mine = group.filter((row) => row.arm === arm)
		if (!mine.length) continue
		const s = summary(mine)
		const errors = mine.reduce((sum, row) => sum + row.errors, 0)
		console.log(
			`  ${arm.padEnd(20)}${spread(s.latency).padEnd(24)}${spread(s.p99).padEnd(24)}${spread(s.opsPerSecond).padEnd(24)}${spread(s.cpuPerOp).padEnd(24)}${errors}`,
		)
	}
	const base = group.filter((row) => row.arm === armNames[0])
	for (const arm of armNames.slice(1)) {
		const mine = group.filter((row) => row.arm === arm)
		if (!mine.length || !base.length) continue
		// Paired by round: each round's ratio, then the median and range of those ratios.
		const pairs = mine.flatMap((row) => {
			const other = base.find((candidate) => candidate.round === row.round)
			return other
				? [{ latency: row.medianUs / other.medianUs, cpu: (row.cpuUserUs + row.cpuSystemUs) / row.ops / ((other.cpuUserUs + other.cpuSystemUs) / other.ops) }]
				: []
		})
		console.log(
			`  ${arm} / ${armNames[0]} per round: latency ${spread(
				pairs.map((p) => p.latency),
				3,
			)}, CPU/op ${spread(
				pairs.map((p) => p.cpu),
				3,
			)}`,
		)
	}
	console.log(
		`  1-min load average during the rounds: ${spread(
			group.map((row) => row.load1),
			2,
		)} on ${cpus().length} cores`,
	)
}

try {
	console.log(
		`prisma-runtime bench: arms ${armNames.join(', ')}; ${rounds} rounds × ${seconds}s (+${warmup}s warm-up); worker flags: ${storeFlags.join(' ') || 'none'}`,
	)
	console.log(
		`  repo: prisma ${versionOf(REPO, 'prisma')}, @prisma/client ${versionOf(REPO, '@prisma/client')}, adapter-better-sqlite3 ${versionOf(REPO, '@prisma/adapter-better-sqlite3')} (better-sqlite3 ${versionOf(REPO, 'better-sqlite3')}), adapter-pg ${versionOf(REPO, '@prisma/adapter-pg')} (pg ${versionOf(REPO, 'pg')})`,
	)
	console.log(
		`  ${P7}: prisma ${versionOf(P7, 'prisma')}, @prisma/client ${versionOf(P7, '@prisma/client')}, adapter-better-sqlite3 ${versionOf(P7, '@prisma/adapter-better-sqlite3')} (better-sqlite3 ${versionOf(P7, 'better-sqlite3')}), adapter-pg ${versionOf(P7, '@prisma/adapter-pg')} (pg ${versionOf(P7, 'pg')})`,
	)
	console.log(
		`  node ${process.version}, ${cpus().length} cores, load average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}`,
	)
	for (const engine of engines) await benchEngine(engine)
	writeFileSync(out, JSON.stringify({ arms: armNames, rounds, seconds, warmup, storeFlags, rows }, null, 1))
	console.log(`\nEvery round: ${out}`)
} finally {
	for (const cleanup of cleanups.reverse()) {
		try {
			await cleanup()
		} catch (error) {
			console.error('cleanup failed:', error)
		}
	}
}
