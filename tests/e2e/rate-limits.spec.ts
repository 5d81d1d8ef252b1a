/**
 * Spec 7/8 and issue 7 over HTTP, against servers started here with strict limits: the 429
 * contract on the sign-in form and on /api/auth/sign-in/email, per-account limiting with
 * rotating addresses behind a trusted proxy, and a spoofed X-Forwarded-For that changes nothing.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { freePort } from '../helpers/http.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
test.describe.configure({ mode: 'serial' })

type Store = { base: string; stop: () => Promise<void>; admin: { email: string; password: string } }

async function startStore(env: Record<string, string>): Promise<Store> {
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-limits-'))
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const admin = { email: 'limits-admin@e2e.example.com', password: `limits-${randomBytes(8).toString('hex')}` }
	const fullEnv = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: process.env.HOME ?? cwd,
		NODE_ENV: 'production',
		AUTH_SECRET: randomBytes(32).toString('base64'),
		DATABASE_URL: `file:${path.join(cwd, 'store.db')}`,
		HOST: '127.0.0.1',
		PORT: String(port),
		AUTH_URL: base,
		ADMIN_EMAIL: admin.email,
		ADMIN_PASSWORD: admin.password,
		...env,
	}
	const init = spawnSync(process.execPath, ['--import', path.join(root, 'node_modules/tsx/dist/loader.mjs'), path.join(root, 'scripts/init.ts')], { cwd, env: fullEnv })
	if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`)
	const server: ChildProcess = spawn(process.execPath, [path.join(root, 'build/server.js')], { cwd, env: fullEnv, stdio: 'ignore' })
	await expect.poll(() => fetch(`${base}/healthz`).then((r) => r.status, () => 0), { timeout: 20_000 }).toBe(200)
	return {
		base,
		admin,
		stop: async () => {
			const exited = new Promise((resolve) => server.once('exit', resolve))
			server.kill('SIGTERM')
			await exited
			rmSync(cwd, { recursive: true, force: true })
		},
	}
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

test('a burst on the sign-in form and on /api/auth/sign-in/email reaches the 429 contract (spec 7, issue 7.2)', async ({ page }) => {
	const store = await startStore({ RATE_LIMIT_AUTHENTICATION: '5/60', RATE_LIMIT_ACCOUNT: '1000/60' })
	try {
		const statuses: number[] = []
		let last: Response | undefined
		for (let i = 0; i < 7; i++) {
			last = await fetch(`${store.base}/sign-in`, {
				method: 'POST',
				redirect: 'manual',
				headers: { origin: store.base, 'content-type': 'application/x-www-form-urlencoded' },
				body: form({ email: `nobody-${i}@example.com`, password: 'wrong-password', redirectTo: '' }),
			})
			statuses.push(last.status)
			if (i < 4) expect(last.headers.get('x-ratelimit-limit')).toBe('5')
		}
		expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
		expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
		expect(last!.headers.get('x-ratelimit-remaining')).toBe('0')
		// The page shows it beside the form, not a raw error page.
		const html = await last!.text()
		expect(html).toContain('Too many attempts')
		expect(html).toContain('name="password"')

		// In the browser, the form says so beside the fields.
		await page.goto(`${store.base}/sign-in`)
		await page.getByLabel('Email').fill(store.admin.email)
		await page.getByLabel('Password', { exact: true }).fill(store.admin.password)
		await page.getByRole('button', { name: 'Sign in' }).click()
		await expect(page.getByRole('alert')).toContainText('Too many attempts')
		await expect(page.getByLabel('Email')).toBeVisible()

		const api = await fetch(`${store.base}/api/auth/sign-in/email`, {
			method: 'POST',
			headers: { origin: store.base, 'content-type': 'application/json' },
			body: JSON.stringify({ email: store.admin.email, password: store.admin.password }),
		})
		expect(api.status).toBe(429)
		expect(api.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(api.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
		expect(api.headers.get('x-retry-after')).toBeNull()
		expect(api.headers.get('set-cookie') ?? '').not.toContain('session_token')
		// Pages of another class are still served.
		expect((await fetch(`${store.base}/`)).status).toBe(200)
	} finally {
		await store.stop()
	}
})

test('sign-in is limited per account even from rotating addresses behind a trusted proxy (issue 7.3)', async () => {
	const store = await startStore({ TRUST_PROXY: '1', RATE_LIMIT_AUTHENTICATION: '1000/60', RATE_LIMIT_ACCOUNT: '3/60' })
	try {
		const attempt = (i: number, password: string, email = store.admin.email) =>
			fetch(`${store.base}/sign-in`, {
				method: 'POST',
				redirect: 'manual',
				headers: { origin: store.base, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `203.0.113.${i + 1}` },
				body: form({ email, password, redirectTo: '' }),
			})
		const statuses = []
		for (let i = 0; i < 4; i++) statuses.push((await attempt(i, 'wrong-password')).status)
		expect(statuses).toEqual([401, 401, 401, 429])
		// Even the right password waits out the account's window.
		expect((await attempt(9, store.admin.password)).status).toBe(429)
		// Another account is not affected.
		expect((await attempt(10, 'wrong-password', 'someone-else@example.com')).status).toBe(401)
		const api = await fetch(`${store.base}/api/auth/sign-in/email`, {
			method: 'POST',
			headers: { origin: store.base, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
			body: JSON.stringify({ email: store.admin.email, password: store.admin.password }),
		})
		expect(api.status).toBe(429)
	} finally {
		await store.stop()
	}
})

test('a spoofed X-Forwarded-For with no trusted proxy does not reset the count (issue 7.3)', async () => {
	const store = await startStore({ TRUST_PROXY: '0', RATE_LIMIT_AUTHENTICATION: '3/60', RATE_LIMIT_ACCOUNT: '1000/60' })
	try {
		const statuses = []
		for (let i = 0; i < 5; i++) {
			const response = await fetch(`${store.base}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: { origin: store.base, 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` },
				body: JSON.stringify({ email: `x${i}@example.com`, password: 'wrong-password' }),
			})
			statuses.push(response.status)
		}
		expect(statuses).toEqual([401, 401, 401, 429, 429])
	} finally {
		await store.stop()
	}
})
