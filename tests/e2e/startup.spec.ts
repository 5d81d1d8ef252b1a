/**
 * [R10] in production the Store refuses to start when
 * AUTH_SECRET is missing, under 32 characters, a known default (the development
 * fallback included, by name) or low-entropy; it exits non-zero, names the rule, and
 * never prints the secret. A strong secret starts.
 *
 * Each case starts `server/server.ts` from a temp working directory (so no .env
 * is read) with an environment built from scratch (so no stray AUTH_SECRET is inherited).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Cookie, type Page, expect, test } from '@playwright/test'
import { stripeEvent, stripeSignature } from '../helpers/events.ts'
import { freePort } from '../helpers/http.ts'
import { secretOf, unusedTotp } from '../helpers/totp.ts'
import { startPrivatePostgres } from '../helpers/private-postgres.ts'
import { privateRedis } from '../helpers/redis.ts'
import { linesWithStacks, logMessages } from './support/server-log.ts'
import { requiredNodeMajor } from '../../app/config/node-runtime.server.ts'

test.describe.configure({ mode: 'parallel' })

const root = fileURLToPath(new URL('../..', import.meta.url))
// What `npm start` runs: the compiled server (npm run build).
const serverScript = path.join(root, 'build/server.js')

/** The AUTH_SECRET line of .env.example, read rather than copied so the test follows the file. */
function envExampleSecret(): string {
	const line = readFileSync(path.join(root, '.env.example'), 'utf8')
		.split('\n')
		.find((l) => l.startsWith('AUTH_SECRET='))
	const value = line?.slice('AUTH_SECRET='.length).trim()
	if (!value) throw new Error('.env.example has no AUTH_SECRET value')
	return value
}

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

function startServer(secret: string | undefined, extra: Record<string, string> = {}) {
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-startup-'))
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: process.env.HOME ?? cwd,
		TMPDIR: tmpdir(),
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: '0',
		AUTH_URL: 'http://127.0.0.1:3999',
		APP_URL: 'http://127.0.0.1:3999',
		DATABASE_URL: `file:${path.join(cwd, 'store.db')}`,
		ADMIN_EMAIL: 'startup-admin@e2e.example.com',
		ADMIN_PASSWORD: 'startup-admin-password',
	}
	if (secret !== undefined) env.AUTH_SECRET = secret
	Object.assign(env, extra)
	const child = spawn(process.execPath, [serverScript], {
		cwd,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	const output = { stdout: '', stderr: '' }
	child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
	child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
	const exited = new Promise<Run>((resolve) =>
		child.on('close', (code, signal) => {
			rmSync(cwd, { recursive: true, force: true })
			resolve({ code, signal, ...output })
		}),
	)
	return { child, output, exited }
}

function within<T>(ms: number, promise: Promise<T>, child: ChildProcess, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			child.kill('SIGKILL')
			reject(new Error(`${what}: still running after ${ms} ms`))
		}, ms)
	})
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const refused: ReadonlyArray<{ name: string; secret: () => string | undefined; rule: string }> = [
	{ name: 'missing', secret: () => undefined, rule: 'missing' },
	{ name: 'empty', secret: () => '', rule: 'missing' },
	{ name: 'short', secret: () => 'short', rule: 'too-short' },
	{ name: '31 random characters', secret: () => randomBytes(24).toString('base64').slice(0, 31), rule: 'too-short' },
	{
		name: 'the development fallback',
		secret: () => 'local-dev-only-fallback-auth-secret-never-use-in-production',
		rule: 'dev-fallback',
	},
	{ name: "better-auth's default", secret: () => 'better-auth-secret-12345678901234567890', rule: 'known-default' },
	{ name: 'the spec placeholder', secret: () => '<AUTH_SECRET_VALUE>', rule: 'known-default' },
	{ name: 'the .env.example value', secret: envExampleSecret, rule: 'known-default' },
	{ name: "'ab' repeated", secret: () => 'ab'.repeat(20), rule: 'low-entropy' },
	{ name: "'a' repeated", secret: () => 'a'.repeat(40), rule: 'low-entropy' },
	{ name: 'a keyboard run', secret: () => 'qwertyuiopasdfghjklzxcvbnm123456', rule: 'guessable' },
	{ name: 'a readable phrase', secret: () => 'my-super-secret-auth-key-for-the-store-2024', rule: 'guessable' },
]

for (const { name, secret: makeSecret, rule } of refused) {
	test(`production refuses to start with AUTH_SECRET ${name} [rule: ${rule}, R10, R11]`, async () => {
		const secret = makeSecret()
		const { child, exited } = startServer(secret)
		const run = await within(20_000, exited, child, `AUTH_SECRET ${name}`)

		expect(run.signal, run.stderr).toBeNull()
		expect(run.code, run.stderr).not.toBe(0)
		expect(run.stdout + run.stderr).not.toContain('listening')
		expect(run.stderr).toContain(`[rule: ${rule}]`)
		if (secret && secret.length >= 8) {
			expect(run.stderr, 'the secret must not be printed').not.toContain(secret)
			expect(run.stdout, 'the secret must not be printed').not.toContain(secret)
		}
	})
}

test('production starts with a strong AUTH_SECRET [R10]', async () => {
	const secret = randomBytes(32).toString('base64')
	const { child, output, exited } = startServer(secret)
	let exitedEarly: Run | undefined
	void exited.then((run) => (exitedEarly = run))
	try {
		await expect
			.poll(() => (exitedEarly ? `exited early (${exitedEarly.code}): ${exitedEarly.stderr}` : output.stdout), {
				timeout: 20_000,
				message: 'waiting for "listening"',
			})
			.toMatch(/\[store\] listening on http:\/\/\S+:\d+ \(production, Node v\d+\.\d+\.\d+\)/)
		expect(child.exitCode).toBeNull()
		// The server runs on the Node package.json's engines names, not an older one.
		const [, major] = /\(production, Node v(\d+)\./.exec(output.stdout)!
		expect(Number(major)).toBeGreaterThanOrEqual(requiredNodeMajor())
		expect(output.stdout + output.stderr).not.toContain(secret)
		expect(output.stderr).not.toContain('[rule:')
	} finally {
		child.kill('SIGTERM')
		const run = await within(10_000, exited, child, 'stopping the server')
		expect(run.code ?? run.signal).toBe(0)
	}
})

/** The environment a fresh deployment starts from: nothing inherited, no .env read. */
function freshEnv(cwd: string, extra: Record<string, string>) {
	return {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: process.env.HOME ?? cwd,
		TMPDIR: tmpdir(),
		NODE_ENV: 'production',
		AUTH_SECRET: randomBytes(32).toString('base64'),
		DATABASE_URL: `file:${path.join(cwd, 'store.db')}`,
		...extra,
	}
}

function collect(child: ChildProcess) {
	const output = { stdout: '', stderr: '' }
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
	const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
	return { output, exited }
}

/** Init in `cwd` with `env` (migrations, the Store and its admin), which must succeed. */
async function initOrFail(cwd: string, env: Record<string, string>) {
	const init = await runInit(cwd, env)
	expect(init.code, init.stderr).toBe(0)
}

test('sign-in works on a port other than 3000 with no AUTH_URL or APP_URL set [R12]', async ({ page }) => {
	// init, then a server, then two sign-ins in the browser.
	test.setTimeout(90_000)
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-port-'))
	const port = await freePort()
	const admin = { ADMIN_EMAIL: 'port-admin@e2e.example.com', ADMIN_PASSWORD: `port-admin-${randomBytes(8).toString('hex')}` }
	const env = freshEnv(cwd, { HOST: '127.0.0.1', PORT: String(port), ...admin })
	await initOrFail(cwd, env)

	const server = spawn(process.execPath, [serverScript], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const { output, exited } = collect(server)
	try {
		await expect.poll(() => output.stdout, { timeout: 20_000 }).toContain(`listening on http://localhost:${port}`)
		// Production says plainly that the public URL was not configured.
		expect(output.stderr).toContain('AUTH_URL and APP_URL are not set')
		expect(output.stderr).toContain(`http://localhost:${port}`)
		for (const host of ['localhost', '127.0.0.1']) {
			await page.context().clearCookies()
			await page.goto(`http://${host}:${port}/sign-in?redirectTo=%2Fadmin`)
			await page.getByLabel('Email').fill(admin.ADMIN_EMAIL)
			await page.getByLabel('Password', { exact: true }).fill(admin.ADMIN_PASSWORD)
			await page.getByRole('button', { name: 'Sign in' }).click()
			await expect(page, host).toHaveURL(`http://${host}:${port}/admin`)
			await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
		}
	} finally {
		server.kill('SIGTERM')
		await within(10_000, exited, server, 'stopping the server')
		rmSync(cwd, { recursive: true, force: true })
	}
})

test('SIGTERM to the `npm start` process stops the server', async () => {
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-sigterm-'))
	const port = await freePort()
	// npm start runs from the project (its package.json); the environment says everything.
	const npm = spawn('npm', ['start', '--silent'], {
		cwd: root,
		env: freshEnv(cwd, { HOST: '127.0.0.1', PORT: String(port), AUTH_URL: `http://127.0.0.1:${port}` }),
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own process group, so a failed run can still clean up whatever npm started.
		detached: true,
	})
	const { output, exited } = collect(npm)
	try {
		await expect.poll(() => output.stdout, { timeout: 20_000 }).toContain('listening on')
		const answering = await fetch(`http://127.0.0.1:${port}/healthz`).then(
			() => true,
			() => false,
		)
		expect(answering).toBe(true)
		npm.kill('SIGTERM')
		await within(10_000, exited, npm, 'npm start after SIGTERM')
		// Nothing is left listening on the port.
		await expect
			.poll(
				() =>
					fetch(`http://127.0.0.1:${port}/healthz`).then(
						() => 'answering',
						() => 'closed',
					),
				{ timeout: 10_000 },
			)
			.toBe('closed')
	} finally {
		try {
			if (npm.pid) process.kill(-npm.pid, 'SIGKILL')
		} catch {
			// Already gone: the case this test expects.
		}
		rmSync(cwd, { recursive: true, force: true })
	}
})

/**
 * Init as the container runs it before every start (build/init.js, scripts/init.ts compiled by
 * `npm run build`), from a folder other than the project's; its exit code and output.
 */
async function runInit(cwd: string, env: Record<string, string>) {
	const init = spawn(process.execPath, [path.join(root, 'build/init.js')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const { output, exited } = collect(init)
	const code = await within(60_000, exited, init, 'init')
	return { code, ...output }
}

/** The compiled server on `env` while `run` runs; its output so far is handed to `run`. */
async function whileServing(cwd: string, env: Record<string, string>, run: (output: { stdout: string; stderr: string }) => Promise<void>) {
	const server = spawn(process.execPath, [serverScript], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const { output, exited } = collect(server)
	try {
		await expect.poll(() => output.stdout, { timeout: 20_000 }).toContain('listening on')
		await run(output)
	} finally {
		server.kill('SIGTERM')
		await within(10_000, exited, server, 'stopping the server')
	}
}

async function signInAt(page: Page, origin: string, email: string, password: string) {
	await page.context().clearCookies()
	await page.goto(`${origin}/sign-in?redirectTo=%2Fadmin`)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password', { exact: true }).fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(page).not.toHaveURL(/\/sign-in\?/)
}

test('the container’s next start with the operator’s credentials leaves the published admin without admin access or its password; production refuses the published password [R23, R29]', async ({
	page,
}) => {
	test.setTimeout(120_000)
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-published-'))
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const env = freshEnv(cwd, { HOST: '127.0.0.1', PORT: String(port), AUTH_URL: origin, APP_URL: origin })
	const published = { email: 'admin@example.com', password: 'change-me-admin-password' }
	const operator = { ADMIN_EMAIL: 'ops@e2e.example.com', ADMIN_PASSWORD: `ops-${randomBytes(12).toString('hex')}` }
	try {
		// First start, nothing set: the published default, loudly.
		const first = await runInit(cwd, env)
		expect(first.code, first.stderr).toBe(0)
		expect(first.stderr).toContain('PUBLISHED password')
		expect(first.stdout).toContain('[init] migrations applied')

		// Production refuses the published password whatever the email: exit 1, one line, nothing done
		// (app/auth/seed-admin.server.test.ts has the other spellings of it).
		const refused = await runInit(cwd, { ...env, ...operator, ADMIN_PASSWORD: published.password })
		expect(refused.code).toBe(1)
		expect(refused.stderr.trim().split('\n')).toHaveLength(1)
		expect(refused.stderr).toContain('Refusing the published admin password in production')
		expect(refused.stdout).toBe('')

		// The operator's own credentials: a new admin, and the published account says goodbye.
		const next = await runInit(cwd, { ...env, ...operator })
		expect(next.code, next.stderr).toBe(0)
		expect(next.stderr).toContain(`${published.email} signed in with the published password: it is no longer an admin, that password no longer signs it in`)
		// The schema is current since the first start: Prisma's migration CLI is not started again.
		expect(next.stdout).toContain('[init] migrations: all applied already')

		await whileServing(cwd, env, async () => {
			// The published password signs nothing in: not the API, not the form.
			const api = await fetch(`${origin}/api/auth/sign-in/email`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin },
				body: JSON.stringify(published),
			})
			expect(api.status).toBe(401)
			await page.context().clearCookies()
			await page.goto(`${origin}/sign-in`)
			await page.getByLabel('Email').fill(published.email)
			await page.getByLabel('Password', { exact: true }).fill(published.password)
			await page.getByRole('button', { name: 'Sign in' }).click()
			await expect(page.getByText('Invalid email or password.')).toBeVisible()
			await signInAt(page, origin, operator.ADMIN_EMAIL, operator.ADMIN_PASSWORD)
			await expect(page).toHaveURL(`${origin}/admin`)
			await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()
		})
	} finally {
		rmSync(cwd, { recursive: true, force: true })
	}
})

test('rotating AUTH_SECRET keeps the Stripe keys and an enrolled admin’s two-factor sign-in; sessions end; without AUTH_SECRET_PREVIOUS the store refuses to start, naming it [R14]', async ({
	page,
	playwright,
}) => {
	test.setTimeout(180_000)
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-rotation-'))
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const [oldSecret, newSecret] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')]
	const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`
	const admin = { email: 'rotation-admin@e2e.example.com', password: `rotation-${randomBytes(12).toString('hex')}` }
	const before = freshEnv(cwd, {
		HOST: '127.0.0.1',
		PORT: String(port),
		AUTH_URL: origin,
		APP_URL: origin,
		AUTH_SECRET: oldSecret,
		ADMIN_EMAIL: admin.email,
		ADMIN_PASSWORD: admin.password,
		STRIPE_SECRET_KEY: `sk_test_${randomBytes(8).toString('hex')}`,
		STRIPE_WEBHOOK_SECRET: webhookSecret,
	})
	const rotated = { ...before, AUTH_SECRET: newSecret }
	let totpSecret = ''
	let oldSession: Cookie[] = []
	try {
		// Before: the Stripe Connection (init) and an admin enrolled in TOTP, under the old secret.
		expect((await runInit(cwd, before)).code).toBe(0)
		await whileServing(cwd, before, async () => {
			const client = await playwright.request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } })
			try {
				expect((await client.post('/api/auth/sign-in/email', { data: admin })).ok()).toBe(true)
				const enabled = await (await client.post('/api/auth/two-factor/enable', { data: { password: admin.password } })).json()
				totpSecret = secretOf(enabled.totpURI)
				expect((await client.post('/api/auth/two-factor/verify-totp', { data: { code: await unusedTotp(totpSecret) } })).ok()).toBe(true)
				oldSession = (await client.storageState()).cookies
			} finally {
				await client.dispose()
			}
		})

		// A new AUTH_SECRET alone: init and the server refuse, naming the fix, printing no secret.
		const refusedInit = await runInit(cwd, rotated)
		expect(refusedInit.code).toBe(1)
		const server = spawn(process.execPath, [serverScript], { cwd, env: rotated, stdio: ['ignore', 'pipe', 'pipe'] })
		const { output, exited } = collect(server)
		expect(await within(20_000, exited, server, 'the refusing server')).not.toBe(0)
		for (const stderr of [refusedInit.stderr, logMessages(output.stderr).join('\n')]) {
			expect(stderr).toContain('stored secrets cannot be read with AUTH_SECRET or AUTH_SECRET_PREVIOUS')
			expect(stderr).toContain('payment Connection "stripe"')
			expect(stderr).toContain('set AUTH_SECRET_PREVIOUS to that secret')
			for (const secret of [oldSecret, newSecret, webhookSecret]) expect(stderr).not.toContain(secret)
		}
		expect(output.stdout).not.toContain('listening')

		// With the old secret in AUTH_SECRET_PREVIOUS the server starts and seals everything anew.
		await whileServing(cwd, { ...rotated, AUTH_SECRET_PREVIOUS: oldSecret }, async ({ stdout }) => {
			expect(stdout).toContain('stored secret(s) sealed anew with AUTH_SECRET')
			// Sessions signed with the old secret have ended.
			await page.context().addCookies(oldSession)
			await page.goto(`${origin}/admin`)
			expect(new URL(page.url()).pathname).toBe('/sign-in')
		})

		// Then the new secret alone: the webhook secret verifies an event, and TOTP signs the admin in.
		await whileServing(cwd, rotated, async () => {
			const payload = stripeEvent('charge.updated', { id: `ch_${randomBytes(6).toString('hex')}`, object: 'charge' })
			const post = (secret: string) =>
				fetch(`${origin}/api/events/stripe`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, secret) },
					body: payload,
				})
			expect((await post(`whsec_${randomBytes(24).toString('base64')}`)).status).toBeGreaterThanOrEqual(400)
			expect((await post(webhookSecret)).status).toBeLessThan(300)
			await signInAt(page, origin, admin.email, admin.password)
			await expect(page).toHaveURL(`${origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
			await page.getByLabel('Code from your authenticator app').fill(await unusedTotp(totpSecret))
			await page.getByRole('button', { name: 'Verify' }).click()
			await expect(page).toHaveURL(`${origin}/admin`)
		})
	} finally {
		rmSync(cwd, { recursive: true, force: true })
	}
})

test('a second server on a port in use exits non-zero with one line naming the port', async () => {
	const holder = createServer()
	await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
	const port = (holder.address() as { port: number }).port
	try {
		const { child, exited } = startServer(randomBytes(32).toString('base64'), { PORT: String(port) })
		const run = await within(20_000, exited, child, 'a server on a port in use')
		expect(run.signal, run.stderr).toBeNull()
		expect(run.code, run.stderr).toBe(1)
		expect(run.stdout).not.toContain('listening')
		const lines = logMessages(run.stderr).filter((line) => line.includes('[store]'))
		expect(lines).toEqual([`[store] not started: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop the other process or set PORT`])
		expect(linesWithStacks(run.stderr)).toEqual([])
	} finally {
		holder.close()
	}
})

/**
 * What the tests below started (servers, a database, a Redis), stopped after each test even
 * when it timed out: a timed-out test's own `finally` never runs.
 */
const cleanups: Array<() => unknown> = []
test.afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Init, then the production server, in a fresh folder: a store with its database ready. */
async function initialisedServer(extra: Record<string, string>) {
	const cwd = mkdtempSync(path.join(tmpdir(), 'store-lifecycle-'))
	cleanups.push(() => rmSync(cwd, { recursive: true, force: true }))
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const env = freshEnv(cwd, { HOST: '127.0.0.1', PORT: String(port), AUTH_URL: origin, RATE_LIMITS: 'off', ...extra })
	await initOrFail(cwd, env)
	const server = spawn(process.execPath, [serverScript], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const { output, exited } = collect(server)
	cleanups.push(async () => {
		if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
		await exited
	})
	await expect.poll(() => output.stdout, { timeout: 20_000 }).toContain('listening on')
	return { server, port, origin, output, exited }
}

/** A sign-in whose body is still being uploaded: in flight until `finish()` sends the rest. */
async function slowSignIn(port: number) {
	const body = new URLSearchParams({ email: 'nobody@example.com', password: 'not-the-password', redirectTo: '' }).toString()
	const socket = connect(port, '127.0.0.1')
	await new Promise((resolve) => socket.once('connect', resolve))
	let answer = ''
	socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
	socket.on('error', () => {})
	const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
	socket.write(`POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`)
	socket.write(body.slice(0, 10))
	// The server has the request once it answers another one after it.
	await expect
		.poll(() =>
			fetch(`http://127.0.0.1:${port}/healthz`).then(
				(r) => r.status,
				() => 0,
			),
		)
		.toBe(200)
	return { finish: () => socket.write(body.slice(10)), answer: () => answer, closed }
}

/** Whether the server still accepts a new TCP connection. */
function newConnection(port: number) {
	return new Promise<'accepted' | 'refused'>((resolve) => {
		const socket = connect(port, '127.0.0.1')
		socket.once('connect', () => {
			socket.destroy()
			resolve('accepted')
		})
		socket.once('error', () => resolve('refused'))
	})
}

/** A store with a sign-in still uploading its body when SIGTERM arrives; `check` sees what follows. */
async function sigtermDuringUpload(
	drainSeconds: string,
	check: (store: Awaited<ReturnType<typeof initialisedServer>>, upload: Awaited<ReturnType<typeof slowSignIn>>) => Promise<void>,
) {
	const store = await initialisedServer({ SHUTDOWN_DRAIN_SECONDS: drainSeconds })
	const upload = await slowSignIn(store.port)
	store.server.kill('SIGTERM')
	await check(store, upload)
}

test.describe('SIGTERM with a request in flight', () => {
	// init, then a server, then the drain.
	test.describe.configure({ timeout: 90_000 })

	test('lets it finish inside the drain window, refuses new connections, and exits 0', () =>
		sigtermDuringUpload('20', async (store, upload) => {
			// The probe slowSignIn waited on may still count for a moment: at least the upload is in flight.
			await expect.poll(() => store.output.stdout).toMatch(/\[store\] SIGTERM: no new connections; [1-9]\d* requests? in flight, waiting up to 20 s/)
			// A new TCP connection, not fetch: fetch may reuse the keep-alive socket of the probe above,
			// which the server keeps while that probe still counts as in flight.
			expect(await newConnection(store.port)).toBe('refused')
			upload.finish()
			await upload.closed
			expect(upload.answer()).toMatch(/^HTTP\/1\.1 401 /)
			expect(await within(15_000, store.exited, store.server, 'the draining server')).toBe(0)
			expect(store.output.stdout).toContain('[store] every request in flight finished; stopped')
			expect(store.output.stderr).not.toContain('cut')
		}))

	test('cuts one that cannot finish within the drain window, says so, and exits non-zero', () =>
		sigtermDuringUpload('1', async (store, upload) => {
			expect(await within(15_000, store.exited, store.server, 'the draining server')).toBe(1)
			await upload.closed
			expect(upload.answer()).toBe('')
			expect(store.output.stderr).toContain('[store] 1 request cut: still in flight when the 1 s drain window ended')
			expect(store.output.stdout).not.toContain('every request in flight finished')
		}))
})

/** /readyz and /healthz as a load balancer sees them: status and (for readiness) the checks. */
async function probe(origin: string) {
	const ready = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(5_000) })
	const live = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5_000) })
	return { readyz: ready.status, checks: ((await ready.json()) as { checks: Record<string, string> }).checks, healthz: live.status }
}

test('/readyz names the database while PostgreSQL is stopped or hung and recovers without a restart; /healthz answers throughout [R81]', async () => {
	// init, then a server, then the dependency's outage and recovery.
	test.setTimeout(120_000)
	const postgres = await startPrivatePostgres()
	cleanups.push(() => postgres.close())
	const store = await initialisedServer({ DATABASE_URL: postgres.url })
	const origin = store.origin
	expect(await probe(origin)).toEqual({ readyz: 200, checks: { database: 'ok' }, healthz: 200 })
	const body = await (await fetch(`${origin}/readyz`)).json()
	expect(body).toEqual({ status: 'ready', checks: { database: 'ok' } })

	postgres.stop()
	await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual({ readyz: 503, checks: { database: 'down' }, healthz: 200 })
	expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: 'unavailable', checks: { database: 'down' } })
	postgres.start()
	await expect.poll(() => probe(origin), { timeout: 15_000 }).toEqual({ readyz: 200, checks: { database: 'ok' }, healthz: 200 })

	// A PostgreSQL that accepts connections and never answers: readiness still answers, bounded.
	postgres.pause()
	try {
		await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual({ readyz: 503, checks: { database: 'down' }, healthz: 200 })
	} finally {
		postgres.resume()
	}
	await expect.poll(() => probe(origin), { timeout: 15_000 }).toEqual({ readyz: 200, checks: { database: 'ok' }, healthz: 200 })
	expect(store.server.exitCode).toBeNull()
	expect(store.output.stderr).toContain('[readyz] database is down')
	expect(store.output.stderr).toContain('[readyz] database answers again')
})

test('/readyz names Redis while it is stopped (SIGSTOP) or killed, and recovers when it is back [R81]', async () => {
	// init, then a server, then the dependency's outage and recovery.
	test.setTimeout(120_000)
	const redis = await privateRedis()
	cleanups.push(() => redis.kill())
	const store = await initialisedServer({ REDIS_URL: redis.url, RATE_LIMITS: 'on' })
	const origin = store.origin
	const up = { readyz: 200, checks: { database: 'ok', redis: 'ok' }, healthz: 200 }
	const redisDown = { readyz: 503, checks: { database: 'ok', redis: 'down' }, healthz: 200 }
	await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual(up)
	redis.pause()
	try {
		await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual(redisDown)
	} finally {
		redis.resume()
	}
	await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual(up)
	await redis.kill()
	await expect.poll(() => probe(origin), { timeout: 10_000 }).toEqual(redisDown)
	await redis.start()
	await expect.poll(() => probe(origin), { timeout: 15_000 }).toEqual(up)
})
