/**
 * Spec 5, rules 1-2 (and 7. Errors): in production the Store refuses to start when
 * AUTH_SECRET is missing, under 32 characters, a known default (the development
 * fallback included, by name) or low-entropy; it exits non-zero, names the rule, and
 * never prints the secret. A strong secret starts.
 *
 * Each case starts `scripts/server.ts` from a temp working directory (so no .env
 * is read) with an environment built from scratch (so no stray AUTH_SECRET is inherited).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'

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

function startServer(secret: string | undefined) {
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
]

for (const { name, secret: makeSecret, rule } of refused) {
	test(`production refuses to start with AUTH_SECRET ${name} [rule: ${rule}] (spec 5.1, 5.2)`, async () => {
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

test('production starts with a strong AUTH_SECRET (spec 5.1)', async () => {
	const secret = randomBytes(32).toString('base64')
	const { child, output, exited } = startServer(secret)
	let exitedEarly: Run | undefined
	void exited.then((run) => (exitedEarly = run))
	try {
		await expect
			.poll(
				() => (exitedEarly ? `exited early (${exitedEarly.code}): ${exitedEarly.stderr}` : output.stdout),
				{ timeout: 20_000, message: 'waiting for "listening"' },
			)
			.toMatch(/\[store\] listening on http:\/\/\S+:\d+ \(production\)/)
		expect(child.exitCode).toBeNull()
		expect(output.stdout + output.stderr).not.toContain(secret)
		expect(output.stderr).not.toContain('[rule:')
	} finally {
		child.kill('SIGTERM')
		const run = await within(10_000, exited, child, 'stopping the server')
		expect(run.code ?? run.signal).toBe(0)
	}
})
