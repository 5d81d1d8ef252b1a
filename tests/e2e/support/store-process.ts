/**
 * A store server of a spec's own (the production build through start-server.mjs, which runs
 * init first), for specs that need settings or a process count the shared e2e server lacks.
 * Two of them may share one database: pass the first one's `databaseUrl` and `secret`.
 * A test that prepared a database itself passes `databaseUrl` (it stays the test's to drop).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { sqliteFromTemplate } from './sqlite-template.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../helpers/http.ts'
import { createStoreDatabase, dropTestDatabase } from '../../helpers/postgres.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

export type StoreProcess = {
	origin: string
	databaseUrl: string
	secret: string
	admin: { email: string; password: string }
	/** Everything the server wrote to stderr so far: its log lines at warn and above (JSON, tests/e2e/support/server-log.ts). */
	stderr(): string
	/** Everything it wrote to stdout so far: its log lines below warn (one per request answered, among others). */
	stdout(): string
	/** SIGKILL to the server process itself (not the launcher), as a crash or the OOM killer would; resolves when it is gone. */
	crash(): Promise<void>
	/** The server process itself (the launcher's one child), for a test that signals it (SIGSTOP: a stalled event loop). */
	serverPid(): number
	stop(): Promise<void>
}

export async function startStoreProcess({
	env = {},
	share,
	databaseUrl: givenUrl,
	port: givenPort,
}: {
	env?: Record<string, string>
	share?: StoreProcess
	databaseUrl?: string
	/** A port chosen beforehand, for a spec that must name the store's address to another service first. */
	port?: number
} = {}): Promise<StoreProcess> {
	const port = givenPort ?? (await freePort())
	const origin = `http://127.0.0.1:${port}`
	const dir = mkdtempSync(path.join(tmpdir(), 'store-process-'))
	const ownDatabase = !share && !givenUrl && process.env.E2E_DATABASE === 'postgresql' ? await createStoreDatabase('store_process') : null
	const databaseUrl = share?.databaseUrl ?? givenUrl ?? ownDatabase?.url ?? sqliteFromTemplate(path.join(dir, 'store.db'))
	const secret = share?.secret ?? randomBytes(32).toString('base64')
	const admin = share?.admin ?? { email: `process-admin-${randomBytes(3).toString('hex')}@e2e.example.com`, password: `pw-${randomBytes(16).toString('hex')}` }
	let stderr = ''
	let log = ''
	let out = ''
	const child: ChildProcess = spawn(process.execPath, ['tests/e2e/support/start-server.mjs'], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			AUTH_URL: origin,
			APP_URL: origin,
			AUTH_SECRET: secret,
			DATABASE_URL: databaseUrl,
			ADMIN_EMAIL: admin.email,
			ADMIN_PASSWORD: admin.password,
			UPLOAD_DIR: path.join(dir, 'uploads'),
			REDIS_URL: '',
			RATE_LIMITS: 'off',
			...env,
		},
	})
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr = (stderr + chunk.toString()).slice(-4000)
		log += chunk.toString()
	})
	// Read whether or not a spec looks at it: an unread pipe fills up and blocks the server's writes.
	child.stdout?.on('data', (chunk: Buffer) => {
		out += chunk.toString()
	})
	const stop = async () => {
		if (child.exitCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve))
			child.kill('SIGTERM')
			await exited
		}
		rmSync(dir, { recursive: true, force: true })
		if (ownDatabase) await dropTestDatabase(ownDatabase.name)
	}
	// start-server.mjs runs init, then the server as its one child: that child is the store.
	const serverPid = () => {
		const server = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' })
			.trim()
			.split('\n')
			.map(Number)
			.find((pid) => pid > 0)
		if (!server) throw new Error('the store process has no server child')
		return server
	}
	const crash = async () => {
		if (child.exitCode !== null) return
		const server = serverPid()
		const exited = new Promise((resolve) => child.once('exit', resolve))
		process.kill(server, 'SIGKILL')
		await exited
	}
	const deadline = Date.now() + 90_000
	for (;;) {
		if (child.exitCode !== null) throw new Error(`the store exited (${child.exitCode}): ${stderr}`)
		if (
			await fetch(`${origin}/healthz`).then(
				(r) => r.ok,
				() => false,
			)
		)
			break
		if (Date.now() > deadline) {
			await stop()
			throw new Error(`the store did not start: ${stderr}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
	return { origin, databaseUrl, secret, admin, stderr: () => log, stdout: () => out, crash, serverPid, stop }
}

/** The hooks of Playwright's `test` (the base one or an extended one) that a spec's own store needs. */
type SpecHooks = { beforeAll(hook: () => Promise<void>): void; afterAll(hook: () => Promise<void>): void; setTimeout(ms: number): void }

/**
 * A store process for the tests of the file, or of the describe block, that calls this: started
 * before the first of them (init, then the server, given `startMs`), stopped after the last.
 * Returns the process, which its tests read once it has started.
 */
export function storeOfThisSpec(test: SpecHooks, { startMs = 120_000 }: { startMs?: number } = {}): () => StoreProcess {
	let store: StoreProcess | undefined
	test.beforeAll(async () => {
		test.setTimeout(startMs)
		store = await startStoreProcess()
	})
	test.afterAll(async () => {
		await store?.stop()
	})
	return () => {
		if (!store) throw new Error('the spec’s own store process has not started')
		return store
	}
}
