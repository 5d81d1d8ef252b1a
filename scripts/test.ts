/**
 * `npm test`: every suite, the way CI runs it. Installs Debian's Chromium when
 * it is missing (root only), typechecks, builds, then runs vitest (unit and
 * integration, on SQLite and PostgreSQL), the fault suite (tests/faults), the scale suite (tests/scale, sized
 * for CI) and Playwright (end-to-end against the built server), then checks that every Stable capability's proof tests passed in this run.
 * Ends with the names of failed tests and one line: "summary: N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { CAPABILITIES } from '../app/config/capabilities'
import { judgeMaturity, readReports } from './lib/maturity'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm test [-- --skip-e2e]

Runs typecheck, build, vitest, the fault suite, the scale suite (SCALE_SECONDS of traffic, 45 by
default) and Playwright. Needs PostgreSQL on 127.0.0.1:5432
(trust auth), Redis on 127.0.0.1:6379 (and the redis-server binary), and Chromium at
/usr/bin/chromium (installed with apt-get when missing and running as root).`)
	process.exit(0)
}

const CHROMIUM = '/usr/bin/chromium'
// Absolute: Playwright resolves a relative report path against its config's folder.
const REPORTS = resolve('tests/.tmp/reports')
rmSync(REPORTS, { recursive: true, force: true })
mkdirSync(REPORTS, { recursive: true })

const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)}s`

function step(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	console.log(`\n▶ ${title}`)
	const since = Date.now()
	const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
	console.log(`◀ ${title}: ${result.status === 0 ? 'ok' : 'failed'} in ${seconds(since)}`)
	return result.status === 0
}

/** A command whose output is kept and printed in one piece when it ends (for steps that run side by side). */
function quietly(command: string, args: string[]): Promise<{ ok: boolean; output: string }> {
	return new Promise((done) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
		let output = ''
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.on('error', (error) => done({ ok: false, output: output + String(error) }))
		child.on('close', (code) => done({ ok: code === 0, output }))
	})
}

/**
 * Steps that read the sources and write nothing the others read, started together: each is one
 * process (mostly one core), so on two cores they finish in about the time of the longest rather
 * than their sum. Each step's output is printed whole, in the order given, once all have ended.
 */
async function sideBySide(steps: Array<[name: string, commands: Array<[string, string[]]>]>) {
	const since = Date.now()
	const runs = steps.map(async ([name, commands]) => {
		let output = ''
		const started = Date.now()
		for (const [command, args] of commands) {
			output += `$ ${[command, ...args].join(' ')}\n`
			const run = await quietly(command, args)
			output += run.output
			if (!run.ok) return { name, ok: false, output, took: seconds(started) }
		}
		return { name, ok: true, output, took: seconds(started) }
	})
	const ended = await Promise.all(runs)
	for (const { name, ok, output, took } of ended) {
		console.log(`\n▶ ${name}`)
		process.stdout.write(output)
		console.log(`◀ ${name}: ${ok ? 'ok' : 'failed'} in ${took}`)
	}
	console.log(`(${ended.map(({ name }) => name).join(', ')}: ${seconds(since)} side by side)`)
	return ended.map(({ name, ok }): [string, boolean] => [name, ok])
}

function ensureChromium() {
	if (existsSync(CHROMIUM)) return true
	if (process.getuid?.() !== 0) {
		console.error(`Chromium is missing: install it with \`sudo apt-get install -y chromium\`.`)
		return false
	}
	return (
		step('install Chromium (Debian package)', 'apt-get', ['update', '-qq']) &&
		step('install Chromium (Debian package)', 'apt-get', ['install', '-y', '-qq', 'chromium'], {
			DEBIAN_FRONTEND: 'noninteractive',
		})
	)
}

type Counts = { passed: number; failed: number }

function vitestCounts(name = 'vitest'): Counts | null {
	const file = `${REPORTS}/${name}.json`
	if (!existsSync(file)) return null
	const report = JSON.parse(readFileSync(file, 'utf8'))
	return { passed: report.numPassedTests, failed: report.numFailedTests + report.numPendingTests }
}

function playwrightCounts(engine: string): Counts | null {
	const file = `${REPORTS}/playwright-${engine}.json`
	if (!existsSync(file)) return null
	const { stats } = JSON.parse(readFileSync(file, 'utf8'))
	return { passed: stats.expected, failed: stats.unexpected + stats.flaky + stats.skipped }
}

const started = Date.now()
const skipE2e = process.argv.includes('--skip-e2e')
const results: Array<[string, boolean]> = []
const npx = (args: string[], env?: NodeJS.ProcessEnv) => step(args.join(' '), 'npx', args, env)

// Typegen writes only .react-router/ (which lint and format ignore), the build only build/ (likewise).
results.push(
	...(await sideBySide([
		[
			'typecheck',
			[
				['npx', ['react-router', 'typegen']],
				['npx', ['tsc']],
			],
		],
		['lint', [['npx', ['eslint', '.']]]],
		['format', [['npx', ['prettier', '--check', '.']]]],
		['build', [['npm', ['run', 'build']]]],
	])),
)
const built = () => results.find(([name]) => name === 'build')?.[1] === true
results.push(['vitest', npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest.json`])])
// The fault suite: the production build while Redis, PostgreSQL, the process or the disk fail.
results.push([
	'faults',
	built() &&
		npx(['vitest', 'run', '--config', 'tests/faults/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/faults.json`]),
])
// Two instances behind a balancer, one SIGKILLed [R126]: CI-sized (`npm run test:scale` runs minutes).
results.push([
	'scale',
	built() &&
		npx(['vitest', 'run', '--config', 'tests/scale/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/scale.json`], {
			SCALE_SECONDS: process.env.SCALE_SECONDS ?? '45',
		}),
])
// End-to-end on the embedded default, then the database-backed specs on PostgreSQL.
const ENGINES = ['sqlite', 'postgresql']
if (!skipE2e) {
	const ready = ensureChromium() && built()
	for (const engine of ENGINES) {
		const e2e =
			ready &&
			npx(['playwright', 'test', '--config', 'tests/playwright.config.ts', '--reporter=list,json'], {
				E2E_DATABASE: engine,
				PLAYWRIGHT_JSON_OUTPUT_NAME: `${REPORTS}/playwright-${engine}.json`,
			})
		results.push([`playwright (${engine})`, e2e])
	}
}

// [R70] A capability marked Stable must have every proof test present and passed in this run.
if (!skipE2e) {
	console.log('\n▶ maturity: every Stable capability’s proof tests passed in this run')
	const { outcomes } = readReports(REPORTS, process.cwd())
	const problems = judgeMaturity(CAPABILITIES, outcomes)
	for (const problem of problems) console.error(`  ${problem}`)
	if (problems.length === 0) console.log(`  ${CAPABILITIES.filter((c) => c.maturity === 'stable').length} Stable capabilities, each proof passed`)
	results.push(['maturity', problems.length === 0])
}

const suites = [vitestCounts(), vitestCounts('faults'), vitestCounts('scale'), ...(skipE2e ? [] : ENGINES.map(playwrightCounts))]
const total = suites.reduce<Counts>(
	(sum, counts) => ({
		passed: sum.passed + (counts?.passed ?? 0),
		// A suite that never reported counts as a failure, not as zero tests.
		failed: sum.failed + (counts ? counts.failed : 1),
	}),
	{ passed: 0, failed: 0 },
)
const failedSteps = results.filter(([, ok]) => !ok).map(([name]) => name)

/** The names of the tests a report says failed, so the last lines of a CI log say what broke. */
function failedTests(): string[] {
	const names: string[] = []
	for (const name of ['vitest', 'faults', 'scale']) {
		const file = `${REPORTS}/${name}.json`
		if (!existsSync(file)) continue
		for (const suite of JSON.parse(readFileSync(file, 'utf8')).testResults ?? []) {
			for (const test of suite.assertionResults ?? []) {
				if (test.status !== 'passed') names.push(`${name}: ${test.fullName} (${test.status}) ${String(test.failureMessages?.[0] ?? '').split('\n')[0]}`)
			}
		}
	}
	for (const engine of skipE2e ? [] : ENGINES) {
		const file = `${REPORTS}/playwright-${engine}.json`
		if (!existsSync(file)) continue
		type Spec = { title: string; ok: boolean; tests?: Array<{ results?: Array<{ error?: { message?: string } }> }> }
		// The first line of the first error, without the terminal's colour codes.
		const firstError = (spec: Spec) =>
			(spec.tests ?? [])
				.flatMap((t) => t.results ?? [])
				.map((r) => r.error?.message ?? '')
				.find(Boolean)
				?.replace(/\u001b\[[0-9;]*m/g, '')
				.split('\n')[0] ?? ''
		const walk = (suite: { title: string; suites?: unknown[]; specs?: Spec[] }, path: string[]) => {
			for (const spec of suite.specs ?? [])
				if (!spec.ok) names.push(`playwright (${engine}): ${[...path, spec.title].join(' › ')} ${firstError(spec)}`.trimEnd())
			for (const child of (suite.suites ?? []) as (typeof suite)[]) walk(child, [...path, child.title])
		}
		for (const suite of JSON.parse(readFileSync(file, 'utf8')).suites ?? []) walk(suite, [suite.title])
	}
	return names
}

console.log('')
for (const name of failedTests()) console.log(`failed: ${name}`)
for (const [name, ok] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`)
const names = ['vitest', 'faults', 'scale', ...(skipE2e ? [] : ENGINES.map((engine) => `playwright (${engine})`))]
console.log(names.map((name, i) => `${name}: ${JSON.stringify(suites[i])}`).join('  '))
if (failedSteps.length > 0 && total.failed === 0) total.failed = failedSteps.length
console.log(`took ${Math.round((Date.now() - started) / 1000)}s`)
console.log(`summary: ${total.passed} passed, ${total.failed} failed`)
process.exit(failedSteps.length > 0 || total.failed > 0 ? 1 : 0)
