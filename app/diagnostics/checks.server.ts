/**
 * The pre-exposure checklist [R80], read-only: what `npm run diagnose` prints first and what the
 * Store Admin overview shows. Each check is one line — pass, warn, fail or info — with what it
 * found and the exact fix. Nothing here writes, and no line ever carries a secret's value.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../auth/seed-admin.server'
import { verifyPassword } from '../auth/password-hashing.server'
import { roleOf } from '../auth/roles'
import { type Config, ConfigError, parseConfig } from '../config/env.server'
import { checkAuthSecret } from '../config/secret-policy'
import type { Db } from '../data/db.server'
import { boundedCheck, dependencyChecks } from '../health/readiness.server'
import { activeVerificationSecrets, type StripeSecrets } from '../payments/connections.server'
import { readInstructions } from '../rules/payment-instructions'
import { connectionScope, openingSecrets, tryOpenSecret } from '../security/secret-box.server'
import { checkStoredSecrets } from '../security/stored-secrets.server'

export type Status = 'pass' | 'warn' | 'fail' | 'info'
export type CheckLine = { id: string; title: string; status: Status; found: string; fix?: string }
export type Env = Record<string, string | undefined>

const line = (id: string, title: string, status: Status, found: string, fix?: string): CheckLine => ({ id, title, status, found, ...(fix ? { fix } : {}) })

/** The value `.env.example` ships with, which setup replaces. */
export const EXAMPLE_AUTH_SECRET = 'replace-me-with-the-output-of-openssl-rand-base64-32'

/** Every other secret the store reads: AUTH_SECRET must equal none of them. */
const OTHER_SECRETS = [
	'AUTH_SECRET_PREVIOUS',
	'ADMIN_PASSWORD',
	'SVC_ADMIN_OAUTH_CLIENT_SECRET',
	'SVC_WORKLOAD_CREDENTIAL',
	'STRIPE_SECRET_KEY',
	'STRIPE_WEBHOOK_SECRET',
	'S3_SECRET_ACCESS_KEY',
	'EMAIL_SERVICE_API_KEY',
] as const

/** Social sign-in variables the store never reads [R22]. */
export const SOCIAL_PROVIDERS = ['GOOGLE', 'GITHUB', 'APPLE', 'FACEBOOK', 'MICROSOFT', 'DISCORD'] as const

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== ''

/** A URL's host and port, never its user or password. */
const safeHost = (url: string) => {
	try {
		return new URL(url).host
	} catch {
		return 'an unreadable EMAIL_SMTP_URL'
	}
}

/**
 * The configuration `npm start` would run with. A refusal (production with a bad secret, say) is
 * itself a failing line; the other checks still run on the rest of the configuration.
 */
export function configOf(env: Env): { config: Config; refusal: CheckLine | null } {
	try {
		return { config: parseConfig(env), refusal: null }
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		const config = parseConfig({ ...env, NODE_ENV: 'development' })
		return { config, refusal: line('configuration', 'Configuration', 'fail', error.message, 'Fix the variable it names in .env or the environment.') }
	}
}

export function authSecretCheck(env: Env): CheckLine {
	const title = 'AUTH_SECRET'
	const fix = 'Generate one with `openssl rand -base64 32`, set AUTH_SECRET to it (move the old one to AUTH_SECRET_PREVIOUS), restart.'
	const secret = env.AUTH_SECRET
	if (!set(secret)) return line('auth-secret', title, 'fail', 'not set: the store would sign sessions with the public development fallback', fix)
	if (secret.trim() === EXAMPLE_AUTH_SECRET) return line('auth-secret', title, 'fail', 'the value .env.example ships with', fix)
	const verdict = checkAuthSecret(secret)
	if (!verdict.ok) return line('auth-secret', title, 'fail', verdict.reason, fix)
	const previous = (env.AUTH_SECRET_PREVIOUS ?? '').split(',').map((s) => s.trim())
	const same = OTHER_SECRETS.filter((name) => (name === 'AUTH_SECRET_PREVIOUS' ? previous.includes(secret) : env[name] === secret))
	if (same.length > 0) return line('auth-secret', title, 'fail', `equals ${same.join(' and ')}: each secret must be its own`, fix)
	return line('auth-secret', title, 'pass', `set, ${secret.length} characters, passes the strength rule and differs from every other secret`)
}

type AdminRow = { email: string; banned: boolean | null; accounts: Array<{ password: string | null }> }

/**
 * Every account whose role is anything but exactly "user", through the role's index (two ranges
 * around "user"): a superset of the admins, whatever else a role string holds, found without
 * reading every customer as a substring match on the role would, on each overview visit.
 */
async function admins(db: Db): Promise<AdminRow[]> {
	const rows = await db.user.findMany({
		where: { OR: [{ role: { lt: 'user' } }, { role: { gt: 'user' } }] },
		select: { email: true, role: true, banned: true, accounts: { where: { providerId: 'credential' }, select: { password: true } } },
	})
	return rows.filter((row) => roleOf(row.role) === 'admin')
}

/** [R23] No admin signs in with the published password, and the published email is not an active admin. */
export async function seededAdminChecks(db: Db): Promise<CheckLine[]> {
	const all = await admins(db)
	const published: string[] = []
	for (const admin of all) {
		for (const account of admin.accounts) {
			if (account.password && (await verifyPassword({ hash: account.password, password: DEFAULT_ADMIN_PASSWORD }))) {
				published.push(admin.email)
				break
			}
		}
	}
	const password =
		published.length > 0
			? line(
					'admin-password',
					'Admin password',
					'fail',
					`${published.length} admin account${published.length === 1 ? '' : 's'} (${published.join(', ')}) sign${published.length === 1 ? 's' : ''} in with the published default password`,
					'Sign in and change it at /account/password, or set ADMIN_EMAIL and a strong ADMIN_PASSWORD and run `npm run init`.',
				)
			: line(
					'admin-password',
					'Admin password',
					'pass',
					`none of ${all.length} admin account${all.length === 1 ? '' : 's'} signs in with the published default password`,
				)
	const defaultActive = all.some((admin) => admin.email.toLowerCase() === DEFAULT_ADMIN_EMAIL && !admin.banned)
	const email = defaultActive
		? line(
				'admin-email',
				'Admin email',
				'fail',
				`${DEFAULT_ADMIN_EMAIL}, the published default, is an active admin`,
				'Set ADMIN_EMAIL to your own address with a strong ADMIN_PASSWORD and run `npm run init`, then remove the admin role from the default account.',
			)
		: line('admin-email', 'Admin email', 'pass', `${DEFAULT_ADMIN_EMAIL} is not an active admin`)
	return [password, email]
}

const isLocal = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]' || host === '0.0.0.0'

/** [R12] APP_URL and AUTH_URL: set, one origin, https, not a local address. */
export function publicUrlCheck(env: Env): CheckLine {
	const title = 'Public URL (APP_URL, AUTH_URL)'
	const fix = 'Set APP_URL and AUTH_URL to the https:// address shoppers use, the same for both.'
	const missing = (['APP_URL', 'AUTH_URL'] as const).filter((name) => !set(env[name]))
	if (missing.length > 0) return line('public-url', title, 'fail', `${missing.join(' and ')} not set: the store answers as http://localhost`, fix)
	let app: URL, auth: URL
	try {
		app = new URL(env.APP_URL!)
		auth = new URL(env.AUTH_URL!)
	} catch {
		return line('public-url', title, 'fail', 'not a valid URL', fix)
	}
	if (app.origin !== auth.origin) return line('public-url', title, 'fail', `APP_URL is ${app.origin} but AUTH_URL is ${auth.origin}`, fix)
	const problems = [...(app.protocol !== 'https:' ? ['not https'] : []), ...(isLocal(app.hostname) ? ['a local address nobody else reaches'] : [])]
	if (problems.length === 0) return line('public-url', title, 'pass', app.origin)
	// Localhost alone, outside production, is someone trying the store on their machine.
	const status = app.protocol === 'https:' && env.NODE_ENV !== 'production' ? 'warn' : 'fail'
	return line('public-url', title, status, `${app.origin}: ${problems.join(', ')}`, fix)
}

const liveKey = (key: string | undefined) => set(key) && /^(sk|rk)_live_/.test(key)

/**
 * [R80] [R131] Every active provider Connection verifies its events (warn on live Stripe keys).
 * A provider is asked for only when one is configured or when the shop has no way to be paid: a
 * shop that takes only bank transfer or payment on delivery passes once its active offline
 * Connection tells buyers how to pay.
 */
export async function paymentProviderCheck(db: Db, storeId: string, config: Config, env: Env): Promise<CheckLine> {
	const title = 'Payment provider'
	const active = await db.connection.findMany({
		where: { storeId, active: true },
		select: { handle: true, provider: true, secretBox: true, paymentInstructions: true },
	})
	const connections = active.filter((connection) => connection.provider === 'stripe' || connection.provider === 'generic')
	if (connections.length === 0 && !set(env.STRIPE_SECRET_KEY)) {
		const offline = active.filter((connection) => connection.provider === 'offline')
		const instructed = offline.filter((connection) => {
			const instructions = readInstructions(connection.paymentInstructions)
			return instructions !== null && Object.values(instructions).some((value) => value !== '')
		})
		if (instructed.length > 0) {
			return line('payment-provider', title, 'pass', `offline payment only (${instructed.map((c) => c.handle).join(', ')}): buyers are told how to pay`)
		}
		if (offline.length > 0) {
			return line(
				'payment-provider',
				title,
				'fail',
				`offline payment only (${offline.map((c) => c.handle).join(', ')}), but buyers are not told how to pay`,
				'In Store Admin › Connections, set the payment instructions (bank details, or a note for payment on delivery); or add a Stripe Connection with its test-mode key and webhook signing secret.',
			)
		}
	}
	const secrets = openingSecrets(config)
	const verified: string[] = []
	const live: string[] = []
	for (const connection of connections) {
		const opened = connection.secretBox ? tryOpenSecret<StripeSecrets>(connection.secretBox, connectionScope(storeId, connection.handle), secrets) : null
		if (opened && activeVerificationSecrets(opened.value).length > 0) verified.push(connection.handle)
		if (opened && liveKey(opened.value.secretKey)) live.push(connection.handle)
	}
	if (liveKey(env.STRIPE_SECRET_KEY)) live.push('STRIPE_SECRET_KEY')
	if (verified.length === 0)
		return line(
			'payment-provider',
			title,
			'fail',
			connections.length === 0
				? set(env.STRIPE_SECRET_KEY)
					? 'STRIPE_SECRET_KEY is set, but no active Stripe Connection verifies events'
					: 'no way to pay: no active Connection'
				: `no active Connection has a webhook secret (${connections.map((c) => c.handle).join(', ')})`,
			'In Store Admin › Connections, add a Stripe Connection with its test-mode key and webhook signing secret (or a Standard Webhooks one), then point the provider at /api/events/<handle>.',
		)
	if (live.length > 0)
		return line(
			'payment-provider',
			title,
			'warn',
			`verifies events on ${verified.join(', ')}, but ${live.join(', ')} holds a live key: real money moves`,
			'Run the checklist with test-mode keys first; switch to live keys only once every line passes.',
		)
	return line('payment-provider', title, 'pass', `events verified on ${verified.join(', ')} (test mode)`)
}

/** [R22] Social sign-in is never enabled; [R21] an email key alone creates no reset or verification flow. */
export function unreadVariableChecks(env: Env): CheckLine[] {
	const social = SOCIAL_PROVIDERS.flatMap((p) => [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`]).filter((name) => set(env[name]))
	return [
		social.length > 0
			? line(
					'social-login',
					'Social sign-in variables',
					'warn',
					`${social.join(', ')} set, but the store enables no social sign-in: nothing reads them`,
					'Remove them from .env; operators sign in with a password or the managed provider.',
				)
			: line('social-login', 'Social sign-in variables', 'pass', 'none set (the store offers no social sign-in)'),
		set(env.EMAIL_SMTP_URL) && set(env.EMAIL_FROM)
			? line(
					'email-service',
					'Email',
					'info',
					`order and newsletter mail sent through ${safeHost(env.EMAIL_SMTP_URL)}; ${env.PASSWORD_RECOVERY === 'on' ? 'password recovery by email is ON (PASSWORD_RECOVERY=on)' : 'no password recovery (PASSWORD_RECOVERY is not on)'}; no email verification`,
				)
			: set(env.EMAIL_SERVICE_API_KEY)
				? line(
						'email-service',
						'Email',
						'info',
						'EMAIL_SERVICE_API_KEY is set but sending is not (EMAIL_SMTP_URL, EMAIL_FROM): no mail is sent, and the key alone creates no reset or verification flow',
						'Set EMAIL_SMTP_URL and EMAIL_FROM to send order and newsletter mail.',
					)
				: line('email-service', 'Email', 'info', 'sending not configured: no order or newsletter mail; the order page tells shoppers to keep its link'),
	]
}

/** Applied migrations against the engine's migrations folder. */
export async function migrationsCheck(db: Db, config: Config, root = process.cwd()): Promise<CheckLine> {
	const title = 'Database migrations'
	const fix = 'Run `npm run init` (it applies pending migrations) with the same DATABASE_URL.'
	let shipped: string[]
	try {
		shipped = readdirSync(path.join(root, 'prisma', config.databaseProvider, 'migrations'), { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.map((entry) => entry.name)
	} catch {
		return line('migrations', title, 'warn', `no migrations folder under prisma/${config.databaseProvider} to compare with`)
	}
	let applied: Set<string>
	try {
		const rows = await db.$queryRawUnsafe<Array<{ migration_name: string }>>(
			'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
		)
		applied = new Set(rows.map((row) => row.migration_name))
	} catch {
		return line('migrations', title, 'fail', 'the database has no migration history (not prepared, or unreachable)', fix)
	}
	const pending = shipped.filter((name) => !applied.has(name))
	if (pending.length > 0) return line('migrations', title, 'fail', `${pending.length} not applied: ${pending.join(', ')}`, fix)
	return line('migrations', title, 'pass', `all ${shipped.length} applied (${config.databaseProvider})`)
}

/** Redis and the object store, when configured, answer within a second. */
export async function dependencyLines(config: Config): Promise<CheckLine[]> {
	const checks = dependencyChecks(config)
	const lines: CheckLine[] = []
	const ask = async (name: string) => boundedCheck(checks[name]!, 1_500)()
	if (checks.redis) {
		const { result, reason } = await ask('redis')
		lines.push(
			result === 'ok'
				? line('redis', 'Redis', 'pass', 'reachable (shared rate limits and cache)')
				: line('redis', 'Redis', 'fail', `configured but not answering (${reason})`, 'Start Redis or fix REDIS_URL; until then sign-in answers 503.'),
		)
	} else lines.push(line('redis', 'Redis', 'info', 'not configured: rate limits are kept in this process’s memory'))
	if (checks.objectStore) {
		const { result, reason } = await ask('objectStore')
		lines.push(
			result === 'ok'
				? line('object-store', 'Object store', 'pass', 'the S3 bucket answers')
				: line('object-store', 'Object store', 'fail', `the S3 bucket does not answer (${reason})`, 'Check S3_BUCKET, S3_ENDPOINT and the access keys.'),
		)
	} else lines.push(line('object-store', 'Object store', 'info', `uploads on disk (${config.uploads.dir})`))
	for (const check of Object.values(checks)) (check as { close?: () => void }).close?.()
	return lines
}

/** [R14] Every stored secret opens with AUTH_SECRET or AUTH_SECRET_PREVIOUS (nothing is sealed anew here). */
export async function storedSecretsCheck(db: Db, config: Config): Promise<CheckLine> {
	const report = await checkStoredSecrets({ db, config, readOnly: true })
	return report.unreadable.length > 0
		? line(
				'stored-secrets',
				'Stored secrets',
				'fail',
				`cannot be read with the configured keys: ${report.unreadable.join('; ')}`,
				'Set AUTH_SECRET_PREVIOUS to the secret they were sealed with (comma-separate several).',
			)
		: line('stored-secrets', 'Stored secrets', 'pass', 'every payment and two-factor secret opens with the configured keys')
}

/** The read-only checklist, in the order an operator fixes it. */
export async function staticChecklist({ db, storeId, env, root }: { db: Db; storeId: string; env: Env; root?: string }): Promise<CheckLine[]> {
	const { config, refusal } = configOf(env)
	return [
		...(refusal ? [refusal] : []),
		authSecretCheck(env),
		...(await seededAdminChecks(db)),
		publicUrlCheck(env),
		await paymentProviderCheck(db, storeId, config, env),
		...unreadVariableChecks(env),
		await migrationsCheck(db, config, root),
		...(await dependencyLines(config)),
		await storedSecretsCheck(db, config),
	]
}

export const failed = (lines: CheckLine[]) => lines.filter((l) => l.status === 'fail')
