/**
 * Playwright's webServer command: prepares a fresh database with init, then serves the
 * production build, both compiled as the container runs them (build/init.js, build/server.js).
 * Every variable it relies on comes from the environment Playwright passes
 * (tests/playwright.config.ts).
 * It never builds: the test command builds first, and a missing build fails here, clearly.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const serverBuild = fileURLToPath(new URL('build/server.js', `file://${root}`))
const initBuild = fileURLToPath(new URL('build/init.js', `file://${root}`))

for (const file of [serverBuild, initBuild]) {
	if (!existsSync(file)) {
		console.error(`[e2e] No production build at ${file}. Run \`npm run build\` before the end-to-end tests.`)
		process.exit(1)
	}
}
for (const name of ['NODE_ENV', 'AUTH_SECRET', 'DATABASE_URL', 'AUTH_URL', 'PORT']) {
	if (!process.env[name]) {
		console.error(`[e2e] ${name} is not set: start the end-to-end server through tests/playwright.config.ts.`)
		process.exit(1)
	}
}

// Demo products give the storefront specs something to sell (fresh database per run).
const init = spawnSync(process.execPath, ['build/init.js', ...(process.env.E2E_DEMO === '0' ? [] : ['--demo'])], {
	cwd: root,
	env: process.env,
	stdio: 'inherit',
})
if (init.status !== 0) {
	console.error(`[e2e] build/init.js failed (exit ${init.status ?? init.signal}).`)
	process.exit(1)
}

// What `npm start` runs: the compiled server, no TypeScript loader in production.
// The V8 flags, malloc arena bound and glibc tunables `npm start` runs with (package.json
// config.node_flags, config.malloc_arena_max and config.glibc_tunables, docs/decisions/028).
const { config } = JSON.parse(readFileSync(fileURLToPath(new URL('package.json', `file://${root}`)), 'utf8'))
const server = spawn(process.execPath, [...config.node_flags.split(' '), 'build/server.js'], {
	cwd: root,
	env: { ...process.env, MALLOC_ARENA_MAX: config.malloc_arena_max, GLIBC_TUNABLES: config.glibc_tunables },
	stdio: 'inherit',
})
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => server.kill(signal))
}
