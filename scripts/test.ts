/**
 * `npm test`: every suite, the way CI runs it. Installs Debian's Chromium when
 * it is missing (root only), typechecks, builds, then runs vitest (unit and
 * integration, on SQLite and PostgreSQL) and Playwright (end-to-end against the
 * built server). Ends with one line: "summary: N passed, N failed".
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm test [-- --skip-e2e]

Runs typecheck, build, vitest and Playwright. Needs PostgreSQL on 127.0.0.1:5432
(trust auth), Redis on 127.0.0.1:6379 (and the redis-server binary), and Chromium at
/usr/bin/chromium (installed with apt-get when missing and running as root).`)
	process.exit(0)
}

const CHROMIUM = '/usr/bin/chromium'
// Absolute: Playwright resolves a relative report path against its config's folder.
const REPORTS = resolve('tests/.tmp/reports')
rmSync(REPORTS, { recursive: true, force: true })
mkdirSync(REPORTS, { recursive: true })

function step(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	console.log(`\n▶ ${title}`)
	const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
	return result.status === 0
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

function vitestCounts(): Counts | null {
	const file = `${REPORTS}/vitest.json`
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

results.push(['typecheck', npx(['react-router', 'typegen']) && npx(['tsc'])])
results.push(['build', step('npm run build', 'npm', ['run', 'build'])])
results.push([
	'vitest',
	npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest.json`]),
])
// End-to-end on the embedded default, then the database-backed specs on PostgreSQL.
const ENGINES = ['sqlite', 'postgresql']
if (!skipE2e) {
	const ready = ensureChromium() && results[1]?.[1] === true
	for (const engine of ENGINES) {
		const e2e = ready &&
			npx(['playwright', 'test', '--config', 'tests/playwright.config.ts', '--reporter=list,json'], {
				E2E_DATABASE: engine,
				PLAYWRIGHT_JSON_OUTPUT_NAME: `${REPORTS}/playwright-${engine}.json`,
			})
		results.push([`playwright (${engine})`, e2e])
	}
}

const suites = [vitestCounts(), ...(skipE2e ? [] : ENGINES.map(playwrightCounts))]
const total = suites.reduce<Counts>(
	(sum, counts) => ({
		passed: sum.passed + (counts?.passed ?? 0),
		// A suite that never reported counts as a failure, not as zero tests.
		failed: sum.failed + (counts ? counts.failed : 1),
	}),
	{ passed: 0, failed: 0 },
)
const failedSteps = results.filter(([, ok]) => !ok).map(([name]) => name)

console.log('')
for (const [name, ok] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`)
const names = ['vitest', ...(skipE2e ? [] : ENGINES.map((engine) => `playwright (${engine})`))]
console.log(names.map((name, i) => `${name}: ${JSON.stringify(suites[i])}`).join('  '))
if (failedSteps.length > 0 && total.failed === 0) total.failed = failedSteps.length
console.log(`took ${Math.round((Date.now() - started) / 1000)}s`)
console.log(`summary: ${total.passed} passed, ${total.failed} failed`)
process.exit(failedSteps.length > 0 || total.failed > 0 ? 1 : 0)
