/**
 * End-to-end tests against the production build (`npm run build` first, then
 * `npm run test:e2e`). One server for the whole run: a fresh SQLite database in a
 * temp dir, a fresh AUTH_SECRET, and test admin credentials. Every variable the
 * server relies on is set here, so a developer's .env changes nothing.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './e2e/support/credentials.ts'
import { sqliteFromTemplate } from './e2e/support/sqlite-template.ts'
import { freePort } from './helpers/http.ts'
import { migrateDatabase } from '../server/migrate.ts'
import { createStoreDatabase, createTestDatabase, testDatabaseUrl } from './helpers/postgres.ts'
import { GENEROUS_LIMITS } from './helpers/generous-limits.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

// The config is evaluated again in every worker; workers inherit these from the main process.
process.env.E2E_PORT ??= String(await freePort())
process.env.E2E_STRIPE_WEBHOOK_SECRET ??= `whsec_${randomBytes(24).toString('base64')}`
// A Stripe stand-in for the checkout path (no network here), started once; the teardown stops it.
if (!process.env.E2E_STRIPE_PORT) {
	const port = await freePort()
	const standIn = spawn(process.execPath, [path.join(root, 'tests/e2e/support/stripe-stand-in.mjs')], {
		env: { ...process.env, STAND_IN_PORT: String(port) },
		stdio: 'ignore',
		detached: true,
	})
	standIn.unref()
	process.env.E2E_STRIPE_PORT = String(port)
	process.env.E2E_STRIPE_PID = String(standIn.pid)
}
process.env.E2E_DB_DIR ??= mkdtempSync(path.join(tmpdir(), 'store-e2e-'))

// E2E_DATABASE=postgresql runs the database-backed specs against a fresh PostgreSQL
// database (created here once, dropped in the global teardown) instead of SQLite.
const engine = process.env.E2E_DATABASE === 'postgresql' ? 'postgresql' : 'sqlite'
// The migrations run once, into a template (dropped in the global teardown): the run's database and
// each store process's own (tests/e2e/support/) are copies, so every init finds them applied.
if (engine === 'postgresql' && !process.env.E2E_PG_TEMPLATE) {
	const template = await createTestDatabase('store_e2e_template')
	process.env.E2E_PG_TEMPLATE = template.name
	migrateDatabase(template.url, { quiet: true })
}
if (engine === 'postgresql') process.env.E2E_PG_DATABASE ??= (await createStoreDatabase('store_e2e')).name
// SQLite likewise: one migrated file, copied for the run's database (here, once) and for each
// store process's own (tests/e2e/support/sqlite-template.ts).
if (engine === 'sqlite' && !process.env.E2E_SQLITE_TEMPLATE) {
	const template = path.join(process.env.E2E_DB_DIR, 'template.db')
	migrateDatabase(`file:${template}`, { quiet: true })
	process.env.E2E_SQLITE_TEMPLATE = template
	sqliteFromTemplate(path.join(process.env.E2E_DB_DIR, 'store.db'))
}
const databaseUrl = engine === 'postgresql' ? testDatabaseUrl(process.env.E2E_PG_DATABASE ?? '') : `file:${path.join(process.env.E2E_DB_DIR, 'store.db')}`

/**
 * Chromium keeps the last --disable-features it is given, so this one repeats the list Playwright
 * passes itself (playwright-core 1.65.1, chromiumSwitches; refresh it when Playwright is upgraded)
 * and adds the omnibox's WebUI popups: Debian's Chromium starts two renderers for them with every
 * browser window, so with every context a test opens, for an address bar nobody sees headless.
 */
const DISABLED_FEATURES = [
	// Playwright's own.
	'AvoidUnnecessaryBeforeUnloadCheckSync',
	'DestroyProfileOnBrowserClose',
	'HttpsUpgrades',
	'HttpsFirstBalancedModeAutoEnable',
	'LensOverlay',
	'MediaRouter',
	'PaintHolding',
	'ThirdPartyStoragePartitioning',
	'AvoidCorsURLLoaderRestartOnRedirect',
	'TcpPortRandomizationWin',
	'OptimizationHints',
	'NetworkTimeServiceQuerying',
	'AimEnabled',
	'PreconnectToSearch',
	'msForceBrowserSignIn',
	'msEdgeUpdateLaunchServicesPreferredVersion',
	// The omnibox popups.
	'WebUIOmniboxPopup',
	'WebUIOmniboxAimPopup',
]

// Headers, start-up refusals, rate limits (their counts live in memory or Redis, never in the
// database), accessibility and the phone layout (what a page renders, not where its data lives)
// do not depend on the engine: once, on SQLite, is enough.
const ENGINE_SPECS =
	engine === 'postgresql'
		? [
				'auth.spec.ts',
				'canary.spec.ts',
				'admin.spec.ts',
				'admin-tools.spec.ts',
				'hardening.spec.ts',
				'uploads.spec.ts',
				'storefront.spec.ts',
				'catalog-search.spec.ts',
				'collections.spec.ts',
				'product-images.spec.ts',
				'payment-instructions.spec.ts',
				'refunds.spec.ts',
				'order-timeline.spec.ts',
				'saved-address.spec.ts',
				'shipping.spec.ts',
				'shipping-admin.spec.ts',
				'store-identity.spec.ts',
				'store-admin.spec.ts',
				'admin-orders-pages.spec.ts',
				'variants.spec.ts',
				'events.spec.ts',
				'sso.spec.ts',
				'sessions.spec.ts',
				'two-factor.spec.ts',
				'checkout-busy.spec.ts',
				'checkout-keeps.spec.ts',
				'diagnose.spec.ts',
				'email.spec.ts',
				'reviews.spec.ts',
				'discounts.spec.ts',
				'campaigns.spec.ts',
			]
		: undefined
/**
 * Specs that keep one worker busy for a minute or more (serial, over a store of their own) are
 * queued first: a project's files go to the workers in name order, and two-factor.spec.ts,
 * started last, ran alone for a minute after the other worker had finished.
 */
const LONG_SPECS = ['two-factor.spec.ts', 'rate-limits.spec.ts', 'diagnose.spec.ts'].filter((file) => !ENGINE_SPECS || ENGINE_SPECS.includes(file))

const port = Number(process.env.E2E_PORT)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
	testDir: './e2e',
	outputDir: path.join(root, 'test-results'),
	globalTeardown: './e2e/support/global-teardown.ts',
	timeout: 30_000,
	expect: { timeout: 5_000 },
	fullyParallel: false,
	forbidOnly: !!process.env.CI,
	retries: 0,
	workers: 2,
	reporter: 'list',
	use: {
		baseURL,
		// A trace is recorded for every test and thrown away when it passes: a quarter of the run's
		// CPU (screencast frames in Chromium, DOM snapshots in the worker; measured on four specs,
		// 121 s of CPU with it, 94 s without). CI keeps no files to open one from, so it records
		// none; a local run keeps the failures' traces under test-results/.
		trace: process.env.CI ? 'off' : 'retain-on-failure',
		launchOptions: {
			executablePath: '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				`--disable-features=${DISABLED_FEATURES.join(',')}`,
			],
		},
	},
	// One project in two parts, the long specs first; both run in the same phase on the same workers.
	projects: [
		{ name: `chromium-${engine}-long`, testMatch: LONG_SPECS },
		{ name: `chromium-${engine}`, ...(ENGINE_SPECS ? { testMatch: ENGINE_SPECS } : {}), testIgnore: LONG_SPECS },
	],
	webServer: {
		command: 'node tests/e2e/support/start-server.mjs',
		cwd: root,
		url: `${baseURL}/healthz`,
		reuseExistingServer: false,
		timeout: 120_000,
		stdout: 'ignore',
		stderr: 'pipe',
		env: {
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			AUTH_URL: baseURL,
			APP_URL: baseURL,
			AUTH_SECRET: randomBytes(32).toString('base64'),
			DATABASE_URL: databaseUrl,
			ADMIN_EMAIL,
			ADMIN_PASSWORD,
			// Empty wins over a developer's .env and counts as unset: nothing optional is on.
			SVC_API_URL: '',
			SVC_ADMIN_OAUTH_CLIENT_ID: '',
			SVC_ADMIN_OAUTH_CLIENT_SECRET: '',
			SVC_WORKLOAD_CREDENTIAL: '',
			EMAIL_SERVICE_API_KEY: '',
			REDIS_URL: '',
			STRIPE_SECRET_KEY: 'sk_test_e2e_stand_in_key',
			STRIPE_WEBHOOK_SECRET: process.env.E2E_STRIPE_WEBHOOK_SECRET,
			STRIPE_API_BASE: `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`,
			// Generous limits for the shared server: tests/e2e/rate-limits.spec.ts starts its own, strict ones.
			...GENEROUS_LIMITS,
			UPLOAD_STORAGE: 'disk',
			UPLOAD_DIR: path.join(process.env.E2E_DB_DIR, 'uploads'),
		},
	},
})
