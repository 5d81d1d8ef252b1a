/**
 * What never reaches the log [R13], as pure functions the logger applies in three places
 * (docs/decisions/037-structured-logging.md): by field name, in strings (a URL's password),
 * and over the finished line (every configured secret's value, in every form it could take).
 * No app imports: the logger sits below every layer.
 */
import { stdSerializers } from 'pino'

export const REDACTED = '[redacted]'

/** The environment variables whose values are secrets; the finished line never carries one. */
export const SECRET_ENV_NAMES = [
	'AUTH_SECRET',
	'AUTH_SECRET_PREVIOUS',
	'ADMIN_PASSWORD',
	'SVC_ADMIN_OAUTH_CLIENT_SECRET',
	'SVC_WORKLOAD_CREDENTIAL',
	'EMAIL_SERVICE_API_KEY',
	'STRIPE_SECRET_KEY',
	'STRIPE_WEBHOOK_SECRET',
	'S3_ACCESS_KEY_ID',
	'S3_SECRET_ACCESS_KEY',
] as const

/** Connection strings: only the password in them is a secret. */
export const URL_ENV_NAMES = ['DATABASE_URL', 'REDIS_URL'] as const

/** A field name, lower case without `-` and `_`, whose value is never logged (headers and bodies alike). */
const SECRET_FIELDS = new Set([
	'authorization',
	'proxyauthorization',
	'cookie',
	'setcookie',
	'password',
	'newpassword',
	'currentpassword',
	'oldpassword',
	'passwd',
	'token',
	'accesstoken',
	'refreshtoken',
	'idtoken',
	'sessiontoken',
	'secret',
	'clientsecret',
	'apikey',
	'xapikey',
	'accesskeyid',
	'secretaccesskey',
	'webhooksecret',
	'credential',
	'credentials',
	'privatekey',
	'backupcodes',
])
const SECRET_SUFFIXES = ['secret', 'password', 'passwd', 'token', 'apikey', 'secretkey', 'accesskey', 'privatekey', 'credential', 'cookie']

/** Whether a field's value is secret by its name: `password`, `clientSecret`, `set-cookie`, `STRIPE_SECRET_KEY`, `S3_ACCESS_KEY_ID`. */
export function isSecretField(name: string): boolean {
	const normal = name.toLowerCase().replace(/[-_]/g, '')
	if (SECRET_FIELDS.has(normal) || SECRET_ENV_NAMES.some((env) => env === name.toUpperCase())) return true
	if (SECRET_SUFFIXES.some((suffix) => normal.endsWith(suffix))) return true
	// Environment-style names: STRIPE_SECRET_KEY, EMAIL_SERVICE_API_KEY, S3_ACCESS_KEY_ID.
	return /(^|_)KEY(_ID)?$/.test(name)
}

/**
 * pino's own redaction paths (fast, exact): the secret-shaped fields at the top of a line, one
 * level down, and in request and response headers. `scrubFields` below covers any depth.
 */
export const REDACT_PATHS = [
	...['authorization', 'cookie', 'set-cookie', 'x-api-key'].flatMap((header) => [
		`req.headers["${header}"]`,
		`res.headers["${header}"]`,
		`headers["${header}"]`,
		`*.headers["${header}"]`,
	]),
	...[
		'password',
		'newPassword',
		'currentPassword',
		'token',
		'accessToken',
		'refreshToken',
		'idToken',
		'secret',
		'clientSecret',
		'apiKey',
		'webhookSecret',
	].flatMap((field) => [field, `*.${field}`]),
	...SECRET_ENV_NAMES.flatMap((name) => [name, `*.${name}`]),
]

/**
 * `scheme://user:password@host` with the password replaced; a bare `redis://secret@host` (Redis
 * reads a lone user part as the password) loses the user part too.
 */
export function scrubUrlCredentials(text: string): string {
	if (!text.includes('@')) return text
	return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]*)@/gi, (match, scheme: string, userinfo: string) => {
		const colon = userinfo.indexOf(':')
		if (colon >= 0) return `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`
		return /^rediss?:\/\/$/i.test(scheme) && userinfo !== '' ? `${scheme}${REDACTED}@` : match
	})
}

/** An Error as pino's plain fields (type, message and stack with their causes, its own properties), then walked like any object. */
function errorFields(error: Error, seen: WeakSet<object>, depth: number): Record<string, unknown> {
	return scrubObject({ ...stdSerializers.err(error) }, seen, depth)
}

function scrubObject(value: Record<string, unknown>, seen: WeakSet<object>, depth: number): Record<string, unknown> {
	const out: Record<string, unknown> = {}
	for (const [key, field] of Object.entries(value)) out[key] = isSecretField(key) && field != null ? REDACTED : scrubAny(field, seen, depth + 1)
	return out
}

const MAX_DEPTH = 8

function scrubAny(value: unknown, seen: WeakSet<object>, depth: number): unknown {
	if (typeof value === 'string') return scrubUrlCredentials(value)
	if (value === null || typeof value !== 'object') return value
	if (depth > MAX_DEPTH) return '[too deep]'
	if (seen.has(value)) return '[circular]'
	seen.add(value)
	if (value instanceof Error) return errorFields(value, seen, depth)
	if (Array.isArray(value)) return value.map((item) => scrubAny(item, seen, depth + 1))
	if (value instanceof URL) return scrubUrlCredentials(value.href)
	if (value instanceof Date) return value.toISOString()
	if (value instanceof Headers) return scrubObject(Object.fromEntries(value.entries()), seen, depth)
	if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`
	return scrubObject(value as Record<string, unknown>, seen, depth)
}

/**
 * A line's fields with every secret-shaped field replaced at any depth, Errors turned into plain
 * fields (their messages and stacks scrubbed like any string), and URL passwords replaced.
 * The caller's objects are not changed.
 */
export function scrubFields<T>(value: T): T {
	return scrubAny(value, new WeakSet(), 0) as T
}

/** The forms a secret can take in a finished JSON line: as is, JSON-escaped, percent-encoded, base64 and base64url. */
export function secretForms(secret: string): string[] {
	const forms = new Set([
		secret,
		JSON.stringify(secret).slice(1, -1),
		encodeURIComponent(secret),
		Buffer.from(secret).toString('base64'),
		Buffer.from(secret).toString('base64url'),
	])
	return [...forms]
}

/** Shorter values are not replaced: a one-letter "secret" would blank every line. Configured secrets are far longer. */
export const MIN_SECRET_LENGTH = 6

/** Every value in the environment that is a secret: the named variables, and the password inside each connection string. */
export function secretValuesFrom(env: Record<string, string | undefined>): string[] {
	const values: string[] = []
	for (const name of SECRET_ENV_NAMES) {
		const value = env[name]?.trim()
		if (!value) continue
		values.push(value)
		// AUTH_SECRET_PREVIOUS may hold several, comma-separated.
		if (name === 'AUTH_SECRET_PREVIOUS') values.push(...value.split(',').map((part) => part.trim()))
	}
	for (const name of URL_ENV_NAMES) {
		const password = urlPassword(env[name])
		if (password) values.push(password)
	}
	return values.filter((value) => value.length >= MIN_SECRET_LENGTH)
}

function urlPassword(value: string | undefined): string | undefined {
	if (!value) return undefined
	try {
		const url = new URL(value)
		if (url.password) return decodeURIComponent(url.password)
		// redis://secret@host: the lone user part is the password.
		if (/^rediss?:$/.test(url.protocol) && url.username) return decodeURIComponent(url.username)
	} catch {
		// Not a URL (file:./data/store.db): no password in it.
	}
	return undefined
}

/**
 * Replaces every form of every secret in a finished line, longest first (so a secret that
 * contains another is replaced whole). The last defence: whatever a field name or a message
 * carried, the value itself never leaves the process.
 */
export function secretReplacer(secrets: Iterable<string>): (line: string) => string {
	const forms = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH).flatMap(secretForms))].sort((a, b) => b.length - a.length)
	if (forms.length === 0) return scrubUrlCredentials
	return (line) => {
		let out = line
		for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED)
		return scrubUrlCredentials(out)
	}
}
