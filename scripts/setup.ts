/**
 * `npm run setup` (after its `npm install`): first-run set-up on the embedded database.
 * Writes .env with a fresh random AUTH_SECRET when there is none, builds, and runs init.
 */
import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { parseConfig } from '../app/config/env.server'
import { portFrom, withPort } from './lib/setup-env'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run setup

Installs dependencies, creates .env from .env.example with a freshly generated
AUTH_SECRET (an existing .env is kept), builds the app, and runs \`npm run init\`
(with --demo on the first set-up, when it wrote .env: six demo products to try the
store with; archive them in Store Admin). PORT=4000 npm run setup also writes
PORT=4000 into .env, so the \`npm start\` that follows serves on 4000.`)
	process.exit(0)
}

const port = process.env.PORT === undefined ? null : portFrom(process.env.PORT)
if (process.env.PORT !== undefined && port === null) {
	console.error(`[setup] PORT=${process.env.PORT} is not a port: use a number from 1 to 65535`)
	process.exit(2)
}

// A first set-up on this machine (no .env yet) is someone trying the store: it gets the demo
// products, so there is something to put in a cart. Later runs never add them again.
const firstSetup = !existsSync('.env')
if (firstSetup) {
	const example = readFileSync('.env.example', 'utf8')
	const secret = randomBytes(32).toString('base64')
	writeFileSync('.env', example.replace(/^AUTH_SECRET=.*$/m, `AUTH_SECRET=${secret}`), {
		mode: 0o600,
	})
	console.log('[setup] wrote .env with a new random AUTH_SECRET')
}
// `npm start` reads .env, not this shell: the port asked for is written where it will look.
if (port !== null) {
	writeFileSync('.env', withPort(readFileSync('.env', 'utf8'), port), { mode: 0o600 })
	console.log(`[setup] wrote PORT=${port} to .env`)
}

execSync('npm run build', { stdio: 'inherit' })
execSync(firstSetup ? 'npm run init -- --demo' : 'npm run init', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })

// Name the address `npm start` will really use: the same .env and environment it reads.
process.loadEnvFile('.env')
const config = parseConfig(process.env)
console.log(`[setup] done: \`npm start\` serves the store on ${config.appUrl}`)
