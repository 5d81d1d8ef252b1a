/**
 * A second store server for the managed sign-in specs: the main e2e server keeps
 * SSO off, so these specs start their own, with SVC_* set and a fresh database (SQLite, or
 * PostgreSQL on the PostgreSQL run), next to a real OpenID provider on loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { sqliteFromTemplate } from './sqlite-template.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { freePort } from '../../helpers/http.ts'
import { startTestIdp, type TestIdp } from '../../helpers/oidc-provider.ts'
import { createStoreDatabase, dropTestDatabase } from '../../helpers/postgres.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

export type SsoStore = {
	origin: string
	idp: TestIdp
	workloadCredential: string
	/** The Store Admin the server's init seeded (password sign-in). */
	admin: { email: string; password: string }
	stop(): Promise<void>
}

export const PROVIDER_NAME = 'Test Identity'

async function waitForHealth(origin: string, child: ChildProcess, stderr: () => string) {
	const deadline = Date.now() + 90_000
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`SSO store exited (${child.exitCode}): ${stderr()}`)
		try {
			if ((await fetch(`${origin}/healthz`)).ok) return
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250))
	}
	throw new Error(`SSO store did not start: ${stderr()}`)
}

function runInit(env: Record<string, string | undefined>) {
	return new Promise<void>((resolve, reject) => {
		let stderr = ''
		// Compiled, as the container runs it (scripts/init.ts bundled by `npm run build`).
		const init = spawn(process.execPath, ['build/init.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
		init.stderr?.on('data', (chunk: Buffer) => {
			stderr = (stderr + chunk.toString()).slice(-4000)
		})
		init.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build/init.js failed (${code}): ${stderr}`))))
	})
}

/**
 * `passwordAdmins`: further password Store Admins, created the operator's way (`scripts/init.ts`
 * with ADMIN_EMAIL set) before the server starts, so init never waits on the server's database.
 */
export async function startSsoStore(
	extraEnv: Record<string, string> = {},
	{ passwordAdmins = [] }: { passwordAdmins?: { email: string; password: string }[] } = {},
): Promise<SsoStore> {
	const [storePort, idpPort] = [await freePort(), await freePort()]
	const origin = `http://127.0.0.1:${storePort}`
	const clientId = `store-${randomBytes(4).toString('hex')}`
	const clientSecret = randomBytes(24).toString('base64url')
	const workloadCredential = `wl_${randomBytes(24).toString('base64url')}`
	const idp = await startTestIdp({
		clientId,
		clientSecret,
		redirectUris: [`${origin}/api/auth/callback/store-sso`],
		port: idpPort,
	})
	const dir = mkdtempSync(path.join(tmpdir(), 'store-sso-'))
	const pgDatabase = process.env.E2E_DATABASE === 'postgresql' ? await createStoreDatabase('store_sso') : null
	let stderr = ''
	const env: Record<string, string | undefined> = {
		...process.env,
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: String(storePort),
		AUTH_URL: origin,
		APP_URL: origin,
		AUTH_SECRET: randomBytes(32).toString('base64'),
		DATABASE_URL: pgDatabase ? pgDatabase.url : sqliteFromTemplate(path.join(dir, 'store.db')),
		ADMIN_EMAIL: `seeded-admin-${randomBytes(3).toString('hex')}@e2e.example.com`,
		ADMIN_PASSWORD: `pw-${randomBytes(16).toString('hex')}`,
		SVC_API_URL: `${idp.issuer}/api`,
		SVC_ADMIN_OAUTH_CLIENT_ID: clientId,
		SVC_ADMIN_OAUTH_CLIENT_SECRET: clientSecret,
		SVC_ADMIN_OAUTH_NAME: PROVIDER_NAME,
		SVC_WORKLOAD_CREDENTIAL: workloadCredential,
		EMAIL_SERVICE_API_KEY: '',
		REDIS_URL: '',
		RATE_LIMITS: 'off',
		...extraEnv,
	}
	// Not spawnSync: init reaches the provider, which answers from this very process.
	for (const extra of passwordAdmins) await runInit({ ...env, ADMIN_EMAIL: extra.email, ADMIN_PASSWORD: extra.password })
	const child = spawn(process.execPath, ['tests/e2e/support/start-server.mjs'], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'pipe'],
		env,
	})
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr = (stderr + chunk.toString()).slice(-4000)
	})
	await waitForHealth(origin, child, () => stderr)
	return {
		origin,
		idp,
		workloadCredential,
		admin: { email: env.ADMIN_EMAIL ?? '', password: env.ADMIN_PASSWORD ?? '' },
		async stop() {
			const exited = new Promise((r) => child.once('exit', r))
			child.kill('SIGTERM')
			await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
			await idp.close()
			rmSync(dir, { recursive: true, force: true })
			if (pgDatabase) await dropTestDatabase(pgDatabase.name)
		},
	}
}

/** The provider's development login page imports web fonts: no network here, so refuse them. */
export async function blockExternalRequests(page: Page) {
	await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort())
}

/** On the provider's login page: signs in as `login`. */
export async function signInAtProvider(page: Page, login: string) {
	await page.locator('input[name="login"]').fill(login)
	await page.locator('input[name="password"]').fill('any-password')
	await page.locator('button[type="submit"], input[type="submit"]').first().click()
}

/** From the store's sign-in page through the provider and back. */
export async function managedSignIn(page: Page, store: SsoStore, login: string, redirectTo = '/admin') {
	await page.goto(`${store.origin}/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`)
	await page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` }).click()
	await page.waitForURL((url) => url.origin === store.idp.issuer)
	await signInAtProvider(page, login)
}
