import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { createDb } from '../../app/data/db.server'
import { connectionScope, sealSecret } from '../../app/security/secret-box.server'
import { newWebhookSecret } from '../helpers/events'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'
import { submitSignInForm } from './support/fixtures'
import { startStoreProcess, type StoreProcess } from './support/store-process'

const root = fileURLToPath(new URL('../../', import.meta.url))

type Report = { ok: boolean; summary: { failed: number }; checks: Array<{ id: string; status: string; found: string; fix?: string }> }

/**
 * The operator's path before exposure [R80]: a fresh set-up fails `npm run diagnose` with a clear
 * list, and following the fixes it prints makes it pass, live checks and proof scenarios included.
 */
test.describe('npm run diagnose [R80]', () => {
	test.describe.configure({ timeout: 180_000 })
	let dir: string
	let databaseUrl: string
	let dropDatabase: (() => Promise<void>) | null = null
	let store: StoreProcess | null = null
	const secret = randomBytes(32).toString('base64')

	test.beforeAll(async () => {
		dir = mkdtempSync(path.join(tmpdir(), 'store-diagnose-spec-'))
		if (process.env.E2E_DATABASE === 'postgresql') {
			const created = await createTestDatabase('store_diagnose_spec')
			databaseUrl = created.url
			dropDatabase = () => dropTestDatabase(created.name)
		} else databaseUrl = `file:${path.join(dir, 'store.db')}`
	})
	test.afterAll(async () => {
		await store?.stop()
		await dropDatabase?.()
		rmSync(dir, { recursive: true, force: true })
	})

	/** `npm run diagnose -- --json` with `.env` as setup writes it, plus what the operator changed. */
	function diagnose(envFile: string, url: string, extra: string[] = []): { status: number | null; report: Report; text: string } {
		// The text run skips the proof scenarios (a throwaway database each time): the JSON run has them.
		const run = (json: boolean) =>
			spawnSync(
				process.execPath,
				['--import', 'tsx', 'scripts/diagnose.ts', '--env-file', envFile, '--url', url, ...(json ? ['--json'] : ['--no-scenarios']), ...extra],
				{
					cwd: root,
					encoding: 'utf8',
					// Only what .env holds: nothing of the test runner's own settings.
					env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' },
					timeout: 120_000,
				},
			)
		const json = run(true)
		const text = run(false)
		expect(text.status, text.stderr).toBe(json.status)
		return { status: json.status, report: JSON.parse(json.stdout) as Report, text: text.stdout }
	}
	const byId = (report: Report, id: string) => report.checks.find((check) => check.id === id)

	test('a fresh set-up fails with a clear list; following its fixes makes every check pass', async ({ page }) => {
		// What `npm run setup` leaves: .env from .env.example with a fresh AUTH_SECRET, the published admin.
		const setupEnv = path.join(dir, 'setup.env')
		writeFileSync(setupEnv, `AUTH_SECRET=${secret}\nDATABASE_URL=${databaseUrl}\nUPLOAD_DIR=${path.join(dir, 'uploads')}\n`)
		store = await startStoreProcess({ databaseUrl, env: { AUTH_SECRET: secret, ADMIN_EMAIL: '', ADMIN_PASSWORD: '', UPLOAD_DIR: path.join(dir, 'uploads') } })

		const fresh = diagnose(setupEnv, store.origin)
		expect(fresh.status).toBe(1)
		expect(fresh.report.ok).toBe(false)
		const failing = fresh.report.checks.filter((check) => check.status === 'fail').map((check) => check.id)
		expect(failing.sort()).toEqual(['admin-email', 'admin-password', 'payment-provider', 'public-url'])
		for (const id of failing) expect(byId(fresh.report, id)!.fix, id).toMatch(/\S/)
		expect(byId(fresh.report, 'public-url')!.found).toContain('http://localhost')
		expect(byId(fresh.report, 'admin-password')!.found).toContain('admin@example.com')
		expect(byId(fresh.report, 'auth-secret')!.status).toBe('pass')
		// The same report as text: one line per check, the fix under each failure, never a secret.
		expect(fresh.text).toMatch(/^FAIL {2}Admin password: /m)
		expect(fresh.text).toMatch(/^ {6}fix: /m)
		expect(fresh.text).not.toContain(secret)
		expect(fresh.text).not.toContain('change-me-admin-password')
		// Live checks already run against the store, and the proof scenarios on a throwaway database.
		expect(byId(fresh.report, 'live-admin-without-session')!.status).toBe('pass')
		expect(byId(fresh.report, 'live-upload-without-session')!.status).toBe('pass')
		for (const id of ['scenario-retries', 'scenario-refunds', 'scenario-boundaries']) expect(byId(fresh.report, id)!.status, id).toBe('pass')

		// The same checklist, read-only, on the Store Admin overview (the published admin still signs in).
		await page.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin`)
		await submitSignInForm(page, 'admin@example.com', 'change-me-admin-password')
		await expect(page.getByRole('heading', { name: 'Before the store is exposed' })).toBeVisible()
		for (const id of ['admin-password', 'admin-email', 'public-url', 'payment-provider']) {
			await expect(page.locator(`tr[data-check="${id}"]`), id).toHaveAttribute('data-status', 'fail')
		}
		await expect(page.locator('tr[data-check="auth-secret"]')).toHaveAttribute('data-status', 'pass')
		await expect(page.getByText('4 checks fail')).toBeVisible()

		// The operator follows the fixes: an own admin and password (init retires the published one),
		// the public https URL, and a Stripe Connection in test mode with its webhook secret.
		const admin = { email: 'owner@shop.example.com', password: `Owner-${randomBytes(12).toString('hex')}` }
		const fixedEnv = path.join(dir, 'fixed.env')
		writeFileSync(
			fixedEnv,
			`AUTH_SECRET=${secret}\nDATABASE_URL=${databaseUrl}\nUPLOAD_DIR=${path.join(dir, 'uploads')}\n` +
				`ADMIN_EMAIL=${admin.email}\nADMIN_PASSWORD=${admin.password}\nAPP_URL=https://shop.example.com\nAUTH_URL=https://shop.example.com\n`,
		)
		const init = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/init.ts'], {
			cwd: root,
			encoding: 'utf8',
			env: {
				PATH: process.env.PATH,
				HOME: process.env.HOME,
				NODE_ENV: 'production',
				AUTH_SECRET: secret,
				DATABASE_URL: databaseUrl,
				ADMIN_EMAIL: admin.email,
				ADMIN_PASSWORD: admin.password,
			},
		})
		expect(init.status, init.stderr).toBe(0)
		const db = createDb(databaseUrl)
		try {
			const { id: storeId } = await db.store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })
			await db.connection.create({
				data: {
					storeId,
					handle: 'stripe',
					provider: 'stripe',
					displayName: 'Card',
					secretBox: sealSecret(
						{ secretKey: `sk_test_${randomBytes(12).toString('hex')}`, webhookSecret: newWebhookSecret() },
						connectionScope(storeId, 'stripe'),
						secret,
					),
				},
			})
			await store.stop()
			store = await startStoreProcess({
				databaseUrl,
				env: {
					AUTH_SECRET: secret,
					...{ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
					APP_URL: 'https://shop.example.com',
					AUTH_URL: 'https://shop.example.com',
					UPLOAD_DIR: path.join(dir, 'uploads'),
				},
			})

			const fixed = diagnose(fixedEnv, store.origin)
			expect(
				fixed.report.checks.filter((check) => check.status === 'fail'),
				fixed.text,
			).toEqual([])
			expect(fixed.status).toBe(0)
			expect(fixed.report.ok).toBe(true)
			// Each live check against the Connection's endpoint was sent, refused and changed nothing.
			for (const name of ['unsigned', 'wrong-signature', 'stale']) {
				const check = byId(fixed.report, `live-event-${name}-stripe`)
				expect(check?.status, name).toBe('pass')
				expect(check?.found).toMatch(/^answered 4\d\d; nothing stored/)
			}
			expect(await db.providerEvent.count({ where: { storeId } })).toBe(0)
			// Counted as refusals: three deliveries for each of the two runs (JSON and text).
			expect((await db.connection.findFirstOrThrow({ where: { storeId, handle: 'stripe' }, select: { rejectedEvents: true } })).rejectedEvents).toBe(6)
		} finally {
			await db.$disconnect()
		}
	})

	test('a wrong --url is one failing line with its fix, not a crash', async () => {
		const envFile = path.join(dir, 'unreachable.env')
		writeFileSync(envFile, `AUTH_SECRET=${secret}\nDATABASE_URL=${databaseUrl}\n`)
		const { status, report } = diagnose(envFile, 'http://127.0.0.1:9', ['--no-scenarios'])
		expect(status).toBe(1)
		const live = byId(report, 'live')
		expect(live?.status).toBe('fail')
		expect(live?.fix).toContain('--url')
	})
})
