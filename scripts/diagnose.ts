/**
 * `npm run diagnose`: the pre-exposure checklist [R80], run by the operator against their own
 * deployment with the configuration `npm start` uses (.env, then the environment, which wins).
 * One line per check (pass, warn, fail or info) with what it found and the exact fix; `--json`
 * prints the same as JSON. Exits 1 when any check fails, 0 otherwise.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { type CheckLine, configOf, failed, staticChecklist, type Status } from '../app/diagnostics/checks.server'
import { getDb } from '../app/data/db.server'
import { runtimeStoreId } from '../app/data/runtime-store.server'
import { liveChecks } from './lib/diagnose/live'
import { proofScenarios } from './lib/diagnose/scenarios'

const args = process.argv.slice(2)
if (args.includes('--help')) {
	console.log(`Usage: npm run diagnose [-- --json] [--url <address>] [--env-file <file>] [--no-live] [--no-scenarios]

Checks the configuration, the database and the running store before it is exposed:
AUTH_SECRET, the seeded admin, APP_URL/AUTH_URL, a payment provider that verifies events,
variables the store does not read, migrations, Redis and the object store, stored secrets;
then live boundary checks against the running store (--url, default APP_URL) and the store's
proof scenarios for retries, refunds and Store boundaries on a throwaway database it creates
and deletes. Exits 1 when any check fails.

  --json           print the report as JSON
  --url <address>  the running store to send the live checks to (default: APP_URL)
  --env-file <f>   the settings file to read instead of .env
  --no-live        skip the live checks (the store is not running)
  --no-scenarios   skip the proof scenarios`)
	process.exit(0)
}

const json = args.includes('--json')
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
// The file `npm start` reads; real environment variables win over it, as there.
const envFile = option('--env-file') ?? '.env'
if (existsSync(envFile)) process.loadEnvFile(envFile)
const env = { ...process.env }
const { config } = configOf(env)
const url = option('--url') ?? config.appUrl
if (!url || !/^https?:\/\//.test(url)) {
	console.error('--url needs an http:// or https:// address')
	process.exit(2)
}

const db = getDb()
const lines: CheckLine[] = []
let storeId: string | null = null
try {
	storeId = await runtimeStoreId(db)
} catch (error) {
	lines.push({
		id: 'store',
		title: 'Store',
		status: 'fail',
		found: `the database at the configured DATABASE_URL holds no Store (${(error as Error).message.trim().split('\n')[0] || (error as Error).name})`,
		fix: 'Run `npm run init` (or `npm run setup`) with the same configuration.',
	})
}
if (storeId) {
	lines.push(...(await staticChecklist({ db, storeId, env, root: path.resolve(import.meta.dirname, '..') })))
	if (!args.includes('--no-live')) lines.push(...(await liveChecks({ db, storeId, config, url })))
}
if (!args.includes('--no-scenarios')) lines.push(...(await proofScenarios(config)))
await db.$disconnect()

const count = (status: Status) => lines.filter((line) => line.status === status).length
const summary = { failed: count('fail'), warnings: count('warn'), passed: count('pass'), info: count('info') }
if (json) {
	console.log(JSON.stringify({ ok: summary.failed === 0, url, engine: config.databaseProvider, summary, checks: lines }, null, 2))
} else {
	const label: Record<Status, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', info: 'INFO' }
	console.log(`Diagnostics for ${new URL(url).origin} (${config.databaseProvider})\n`)
	for (const line of lines) {
		console.log(`${label[line.status]}  ${line.title}: ${line.found}`)
		if (line.fix && line.status !== 'pass') console.log(`      fix: ${line.fix}`)
	}
	console.log(`\n${summary.failed} failed, ${summary.warnings} warnings, ${summary.passed} passed, ${summary.info} for information`)
	if (summary.failed > 0) console.log('Clear every failure before the store is exposed (docs/operations.md, "Before the store is exposed").')
}
process.exit(failed(lines).length > 0 ? 1 : 0)
