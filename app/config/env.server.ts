import { z } from 'zod'
import { DEFAULT_DATABASE_URL, databaseProvider } from './database-url'
import { operatorSignInProblem } from './operator-config'
import { DEV_FALLBACK_AUTH_SECRET, checkAuthSecret } from './secret-policy'

/** Thrown at start-up; the message names the failed rule and never a secret's value. */
export class ConfigError extends Error {
	override name = 'ConfigError'
}

const optional = z
	.string()
	.optional()
	.transform((value) => (value === undefined || value.trim() === '' ? undefined : value))

const url = z.url({ protocol: /^https?$/ })
// An empty value (`AUTH_URL=` in .env) means unset, like every optional value here.
const optionalUrl = optional.pipe(url.optional())

const ruleText = z
	.string()
	.regex(/^\d{1,6}\/\d{1,6}$/, 'use <requests>/<seconds>, e.g. 20/60')
	.transform((value) => {
		const [limit, windowSeconds] = value.split('/').map(Number) as [number, number]
		return { limit, windowSeconds }
	})
	.refine((r) => r.limit >= 1 && r.windowSeconds >= 1, 'requests and seconds must be at least 1')
const rule = (fallback: string) => z.string().default(fallback).pipe(ruleText)

const EnvSchema = z.object({
	NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
	AUTH_SECRET: optional,
	// R14: the secret(s) AUTH_SECRET replaced, comma-separated: read stored secrets, never sign or seal.
	AUTH_SECRET_PREVIOUS: optional,
	// Unset: the public URL follows PORT (http://localhost:PORT), [R12].
	AUTH_URL: optionalUrl,
	APP_URL: optionalUrl,
	DATABASE_URL: z.string().default(DEFAULT_DATABASE_URL),
	ADMIN_EMAIL: optional,
	ADMIN_PASSWORD: optional,
	SVC_API_URL: optional,
	SVC_ADMIN_OAUTH_CLIENT_ID: optional,
	SVC_ADMIN_OAUTH_CLIENT_SECRET: optional,
	SVC_WORKLOAD_CREDENTIAL: optional,
	// the label of the managed sign-in button ("Sign in with <name>").
	SVC_ADMIN_OAUTH_NAME: optional,
	EMAIL_SERVICE_API_KEY: optional,
	// smtp://[user@]host:port (smtps:// for TLS from the start); the password is EMAIL_SERVICE_API_KEY.
	EMAIL_SMTP_URL: optional,
	EMAIL_FROM: optional,
	// The most mails the worker hands to SMTP in a minute (a provider's limit); unset: no cap.
	EMAIL_MAX_PER_MINUTE: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(100_000).optional()),
	// Off by default: only `on`, with sending configured, offers password recovery by email [R21].
	PASSWORD_RECOVERY: z.enum(['on', 'off']).default('off'),
	REDIS_URL: optional,
	HOST: z.string().default('0.0.0.0'),
	PORT: z.coerce.number().int().min(0).max(65535).default(3000),
	// Proxies in front of the server whose X-Forwarded-For may be believed (Fly: 1).
	TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
	// On SIGTERM, how long requests in flight may take to finish before they are cut (docs/decisions/034).
	SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
	// Load shedding at the door [R125] (docs/decisions/077): 503 + Retry-After past these; 0 switches a limit off.
	OVERLOAD_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(64),
	OVERLOAD_MAX_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
	// Uploads (docs/decisions/013-uploads.md): local disk by default, or an S3-compatible bucket.
	UPLOAD_STORAGE: z.enum(['disk', 's3']).default('disk'),
	UPLOAD_DIR: z.string().default('./data/uploads'),
	UPLOAD_MAX_FILE_BYTES: z.coerce
		.number()
		.int()
		.min(1024)
		.max(100 * 1024 * 1024)
		.default(5 * 1024 * 1024),
	UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(50).default(10),
	S3_BUCKET: optional,
	S3_ENDPOINT: optionalUrl,
	S3_REGION: z.string().default('us-east-1'),
	S3_ACCESS_KEY_ID: optional,
	S3_SECRET_ACCESS_KEY: optional,
	S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
	// Rate limits [R50]: "<requests>/<seconds>" per class and client address; RATE_LIMITS=off disables.
	RATE_LIMITS: z.enum(['on', 'off']).default('on'),
	RATE_LIMIT_AUTHENTICATION: rule('20/60'),
	RATE_LIMIT_ACCOUNT: rule('10/900'),
	// Per account, not per address [R55]: password failures from browsers that never signed in to
	// it, from every address together; and from one browser that did (its device cookie).
	RATE_LIMIT_ACCOUNT_NEW_DEVICES: rule('30/3600'),
	RATE_LIMIT_DEVICE: rule('10/900'),
	// Reset mails per address, whoever asks [R28].
	RATE_LIMIT_PASSWORD_RESET: rule('3/3600'),
	RATE_LIMIT_SENSITIVE: rule('30/60'),
	RATE_LIMIT_ADMIN: rule('600/60'),
	RATE_LIMIT_GENERAL: rule('1200/60'),
	// The Stripe Connection, declared by configuration (`npm run init` stores it encrypted).
	STRIPE_SECRET_KEY: optional,
	STRIPE_WEBHOOK_SECRET: optional,
	STRIPE_API_BASE: optionalUrl,
})

export type Config = ReturnType<typeof parseConfig>

export function parseConfig(env: Record<string, string | undefined>) {
	const parsed = EnvSchema.safeParse(env)
	if (!parsed.success) {
		// zod issues carry paths and messages, not input values.
		const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
		throw new ConfigError(`Invalid configuration: ${problems}`)
	}
	const vars = parsed.data
	const isProduction = vars.NODE_ENV === 'production'

	let authSecret = vars.AUTH_SECRET
	if (isProduction) {
		const verdict = checkAuthSecret(authSecret)
		if (!verdict.ok) {
			throw new ConfigError(`Refusing to start in production: ${verdict.reason} [rule: ${verdict.rule}]. ` + 'Generate one with: openssl rand -base64 32')
		}
	}
	authSecret ??= DEV_FALLBACK_AUTH_SECRET
	const previousAuthSecrets = [
		...new Set(
			(vars.AUTH_SECRET_PREVIOUS ?? '')
				.split(',')
				.map((secret) => secret.trim())
				.filter(Boolean),
		),
	]
	if (previousAuthSecrets.includes(authSecret)) {
		throw new ConfigError(
			'Invalid configuration: AUTH_SECRET_PREVIOUS repeats AUTH_SECRET. It holds only the secrets AUTH_SECRET replaced ' +
				'(docs/decisions/032-secret-rotation.md).',
		)
	}

	const email = emailConfig(vars)
	if (vars.PASSWORD_RECOVERY === 'on' && !email) {
		throw new ConfigError('Invalid configuration: PASSWORD_RECOVERY=on sends its links by mail and needs EMAIL_SMTP_URL and EMAIL_FROM')
	}

	if (vars.UPLOAD_STORAGE === 's3' && !vars.S3_BUCKET) {
		throw new ConfigError('Invalid configuration: UPLOAD_STORAGE=s3 needs S3_BUCKET')
	}

	// the SSO client and the workload credential never stand in for each other.
	const operatorProblem = operatorSignInProblem(vars)
	if (operatorProblem) throw new ConfigError(`Invalid configuration: ${operatorProblem}`)

	let provider
	try {
		provider = databaseProvider(vars.DATABASE_URL)
	} catch (error) {
		throw new ConfigError((error as Error).message)
	}

	// Unset URLs follow the port the server really listens on, so changing PORT never
	// breaks sign-in; the loopback alias is trusted too while nothing public is configured.
	const localUrl = `http://localhost:${vars.PORT}`
	const publicUrlConfigured = vars.AUTH_URL !== undefined || vars.APP_URL !== undefined
	const authUrl = new URL(vars.AUTH_URL ?? vars.APP_URL ?? localUrl).origin
	const appUrl = new URL(vars.APP_URL ?? authUrl).origin
	const trustedOrigins = publicUrlConfigured ? [...new Set([authUrl, appUrl])] : [authUrl, `http://127.0.0.1:${vars.PORT}`]
	return {
		nodeEnv: vars.NODE_ENV,
		isProduction,
		authSecret,
		usesDevFallbackSecret: authSecret === DEV_FALLBACK_AUTH_SECRET,
		/** Secrets AUTH_SECRET replaced: they still open stored secrets until those are sealed anew [R14]. */
		previousAuthSecrets,
		authUrl,
		appUrl,
		publicUrlConfigured,
		/** Origins whose form posts are accepted (and better-auth's trustedOrigins). */
		trustedOrigins,
		databaseUrl: vars.DATABASE_URL,
		databaseProvider: provider,
		admin: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD },
		managedSignIn: {
			apiUrl: vars.SVC_API_URL,
			clientId: vars.SVC_ADMIN_OAUTH_CLIENT_ID,
			clientSecret: vars.SVC_ADMIN_OAUTH_CLIENT_SECRET,
			name: vars.SVC_ADMIN_OAUTH_NAME,
		},
		// [R24]: machine workloads only; refused from every request (app/auth/workload-credential.server.ts).
		workloadCredential: vars.SVC_WORKLOAD_CREDENTIAL,
		/** Sending mail: null when EMAIL_SMTP_URL or EMAIL_FROM is unset (then no mail is written or sent). */
		email,
		/** Password recovery by email: PASSWORD_RECOVERY=on with sending configured (docs/decisions/041). */
		passwordRecovery: vars.PASSWORD_RECOVERY === 'on' && email !== null,
		redisUrl: vars.REDIS_URL,
		host: vars.HOST,
		port: vars.PORT,
		trustProxy: vars.TRUST_PROXY,
		shutdownDrainMs: vars.SHUTDOWN_DRAIN_SECONDS * 1_000,
		/** [R125] Past these a new request is answered 503 at once (server/overload.ts); 0 is no limit. */
		overload: {
			maxInFlight: vars.OVERLOAD_MAX_IN_FLIGHT || Number.POSITIVE_INFINITY,
			maxLoopDelayMs: vars.OVERLOAD_MAX_LOOP_DELAY_MS || Number.POSITIVE_INFINITY,
		},
		rateLimits: {
			enabled: vars.RATE_LIMITS === 'on',
			rules: {
				authentication: vars.RATE_LIMIT_AUTHENTICATION,
				account: vars.RATE_LIMIT_ACCOUNT,
				newDevices: vars.RATE_LIMIT_ACCOUNT_NEW_DEVICES,
				device: vars.RATE_LIMIT_DEVICE,
				passwordReset: vars.RATE_LIMIT_PASSWORD_RESET,
				sensitive: vars.RATE_LIMIT_SENSITIVE,
				admin: vars.RATE_LIMIT_ADMIN,
				general: vars.RATE_LIMIT_GENERAL,
			},
		},
		stripe: vars.STRIPE_SECRET_KEY
			? { secretKey: vars.STRIPE_SECRET_KEY, webhookSecret: vars.STRIPE_WEBHOOK_SECRET, apiBase: vars.STRIPE_API_BASE }
			: undefined,
		uploads: {
			storage: vars.UPLOAD_STORAGE,
			dir: vars.UPLOAD_DIR,
			maxFileBytes: vars.UPLOAD_MAX_FILE_BYTES,
			maxFiles: vars.UPLOAD_MAX_FILES,
			s3: {
				bucket: vars.S3_BUCKET,
				endpoint: vars.S3_ENDPOINT,
				region: vars.S3_REGION,
				accessKeyId: vars.S3_ACCESS_KEY_ID,
				secretAccessKey: vars.S3_SECRET_ACCESS_KEY,
				forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
			},
		},
	}
}

/** EMAIL_SMTP_URL and EMAIL_FROM together turn sending on; either alone is refused by name. */
function emailConfig(vars: { EMAIL_SMTP_URL?: string; EMAIL_FROM?: string; EMAIL_SERVICE_API_KEY?: string; EMAIL_MAX_PER_MINUTE?: number }) {
	if (!vars.EMAIL_SMTP_URL && !vars.EMAIL_FROM) return null
	if (!vars.EMAIL_SMTP_URL || !vars.EMAIL_FROM) {
		throw new ConfigError('Invalid configuration: sending mail needs both EMAIL_SMTP_URL and EMAIL_FROM (docs/configuration.md, "Email")')
	}
	let url: URL
	try {
		url = new URL(vars.EMAIL_SMTP_URL)
	} catch {
		throw new ConfigError('Invalid configuration: EMAIL_SMTP_URL is not a URL (smtp://host:587 or smtps://host:465)')
	}
	if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('Invalid configuration: EMAIL_SMTP_URL must start with smtp:// or smtps://')
	if (url.password) throw new ConfigError('Invalid configuration: put the SMTP password in EMAIL_SERVICE_API_KEY, not in EMAIL_SMTP_URL')
	if (/[\r\n]/.test(vars.EMAIL_FROM) || !/@/.test(vars.EMAIL_FROM))
		throw new ConfigError('Invalid configuration: EMAIL_FROM must be one address, e.g. "My Store <shop@example.com>"')
	return {
		host: url.hostname,
		port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
		secure: url.protocol === 'smtps:',
		user: url.username ? decodeURIComponent(url.username) : undefined,
		password: vars.EMAIL_SERVICE_API_KEY,
		from: vars.EMAIL_FROM,
		maxPerMinute: vars.EMAIL_MAX_PER_MINUTE ?? null,
	}
}

let config: Config | undefined

/** The process's configuration, parsed once, on first use (the server calls it at start). */
export function getConfig(): Config {
	config ??= parseConfig(process.env)
	return config
}

/** The only configuration the browser sees [R13] (secrets stay on the server). */
export function publicConfig(config: Config) {
	return { appUrl: config.appUrl }
}
