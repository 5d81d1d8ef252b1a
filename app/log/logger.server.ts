/**
 * The store's one logger (pino): one JSON line per event in production, a short readable line in
 * development, nothing written under tests (they observe lines instead). Every line logged while
 * a request is handled carries its `reqId`; no line carries a secret [R13]
 * (docs/decisions/037-structured-logging.md). Imports nothing app-level: every layer may log.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { type DestinationStream, type Level, type Logger, multistream, pino } from 'pino'
import { REDACTED, REDACT_PATHS, scrubFields, secretReplacer, secretValuesFrom } from './redact'

export type { Logger } from 'pino'

const SHARED = Symbol.for('store-runtime.log')

/**
 * State every copy of this module shares: the production server is two bundles (build/server.js,
 * which starts requests, and build/server/index.js, where routes log), each with its own copy.
 * One request context, one set of observers and secrets, one logger, kept on globalThis.
 */
type Shared = {
	requests: AsyncLocalStorage<{ requestId: string }>
	observers: Set<(line: string) => void>
	runtimeSecrets: Set<string>
	replace?: (line: string) => string
	log?: Logger
	requestLog?: Logger
	destination?: DestinationStream
}
const shared: Shared = ((globalThis as { [SHARED]?: Shared })[SHARED] ??= {
	requests: new AsyncLocalStorage(),
	observers: new Set(),
	runtimeSecrets: new Set(),
})
const { requests, observers, runtimeSecrets } = shared

/** Runs `fn` as part of a request: every line it (and what it awaits) logs carries `reqId`. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
	return requests.run({ requestId }, fn)
}

/** The id of the request being handled, when there is one. */
export function currentRequestId(): string | undefined {
	return requests.getStore()?.requestId
}

/**
 * Every finished line (after redaction, exactly as it would be written) also goes to `listener`
 * until the returned function is called. Tests read the log through it
 * (tests/setup/fail-on-error-log.ts); nothing is parsed when no one listens.
 */
export function observeLogs(listener: (line: string) => void): () => void {
	observers.add(listener)
	return () => observers.delete(listener)
}

/**
 * Reads the secrets to replace from the environment again: call after `.env` is loaded
 * (server/config.ts). Until then the values are read at the first line.
 */
export function rememberSecretsFromEnvironment() {
	shared.replace = secretReplacer([...secretValuesFrom(process.env), ...runtimeSecrets])
}

/** A secret the process learned after start (a payment Connection's key, opened from the database): never logged either. */
export function registerSecret(value: string | undefined) {
	if (!value || runtimeSecrets.has(value)) return
	runtimeSecrets.add(value)
	rememberSecretsFromEnvironment()
}

/** The last step before a line is written: every configured secret, in every form, replaced. */
function finishLine(line: string): string {
	if (!shared.replace) rememberSecretsFromEnvironment()
	const finished = shared.replace!(line)
	for (const observe of observers) observe(finished)
	return finished
}

type Mode = 'production' | 'development' | 'test'

/**
 * Where lines go: debug and info to stdout, warn and above to stderr (as console.log and
 * console.warn did, so supervisors and the e2e helpers read warnings where they always were).
 * Written synchronously, so a line logged just before `process.exit` is not lost.
 */
function destinationFor(mode: Mode): DestinationStream {
	if (mode === 'test') return { write: () => undefined }
	const out = pino.destination({ dest: 1, sync: true })
	const err = pino.destination({ dest: 2, sync: true })
	if (mode === 'production') {
		return multistream(
			[
				{ level: 'trace', stream: out },
				{ level: 'warn', stream: err },
			],
			{ dedupe: true },
		)
	}
	return multistream(
		[
			{ level: 'trace', stream: readable(out) },
			{ level: 'warn', stream: readable(err) },
		],
		{ dedupe: true },
	)
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }
const PLAIN_FIELDS = new Set(['level', 'levelName', 'time', 'msg', 'pid', 'hostname', 'reqId'])

/**
 * Development's readable form: `12:03:04.567 WARN  [1a2b3c4d] message key=value`, made from the
 * finished (already redacted) JSON line. A small formatter rather than another package.
 */
function readable(stream: DestinationStream): DestinationStream {
	return {
		write(line: string) {
			let record: Record<string, unknown>
			try {
				record = JSON.parse(line) as Record<string, unknown>
			} catch {
				stream.write(line)
				return
			}
			const time = String(record.time).slice(11, 23)
			const level = (LEVEL_NAMES[Number(record.level)] ?? String(record.level)).padEnd(5)
			const request = typeof record.reqId === 'string' ? ` [${record.reqId.slice(0, 8)}]` : ''
			const rest = Object.entries(record)
				.filter(([key]) => !PLAIN_FIELDS.has(key))
				.map(([key, value]) =>
					key === 'err' && value && typeof value === 'object' && 'stack' in value ? `\n${String(value.stack)}` : ` ${key}=${JSON.stringify(value)}`,
				)
				.join('')
			stream.write(`${time} ${level}${request} ${String(record.msg ?? '')}${rest}\n`)
		},
	}
}

function modeOf(nodeEnv: string | undefined): Mode {
	return nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development'
}

/**
 * A logger with the store's redaction. The store uses the one below; tests make their own with a
 * destination they read.
 */
export function createLogger({
	destination = destinationFor(modeOf(process.env.NODE_ENV)),
	level = (process.env.LOG_LEVEL as Level | undefined) ?? (modeOf(process.env.NODE_ENV) === 'test' ? 'debug' : 'info'),
	fixedFields = false,
}: { destination?: DestinationStream; level?: Level; fixedFields?: boolean } = {}): Logger {
	// Secret-shaped fields at any depth, Errors anywhere, URL passwords [R13]; a logger of fixed,
	// plain fields (the request line) skips the walk, and its finished line is still scrubbed of secrets.
	const fieldRules = fixedFields
		? {}
		: { formatters: { log: (fields: Record<string, unknown>) => scrubFields(fields) }, redact: { paths: REDACT_PATHS, censor: REDACTED } }
	return pino(
		{
			level,
			base: undefined,
			timestamp: pino.stdTimeFunctions.isoTime,
			...fieldRules,
			formatters: {
				level: (label, number) => ({ level: number, levelName: label }),
				...fieldRules.formatters,
			},
			// Errors were made plain fields by the walk above; pino's own serializer would call them "Object".
			serializers: { err: (value: unknown) => value },
			mixin: () => {
				const requestId = currentRequestId()
				return requestId ? { reqId: requestId } : {}
			},
			hooks: { streamWrite: finishLine },
		},
		destination,
	)
}

const destination = (shared.destination ??= destinationFor(modeOf(process.env.NODE_ENV)))

/** The store's logger. Lines logged while a request is handled carry its `reqId`. */
export const log: Logger = (shared.log ??= createLogger({ destination }))

/**
 * The one line per answered request (request-log.server.ts): method, path, status and duration,
 * fields the store makes itself, so the per-field walk is skipped (it was a tenth of what a page
 * view allocated); the finished line still has every configured secret replaced.
 */
export const requestLog: Logger = (shared.requestLog ??= createLogger({ destination, fixedFields: true }))

const CONSOLE_LEVELS = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' } as const

/**
 * The server's console goes through the logger too: what a library prints (better-auth's own
 * logger outside a request, a framework's `console.error(error)`) is redacted, carries the
 * request's id and is one JSON line, like everything else. Text arguments make the message; an
 * Error becomes `err`, other values `detail`, both walked for secret-shaped fields.
 */
export function routeConsoleToLog(logger: Logger = log) {
	for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
		console[method as keyof typeof CONSOLE_LEVELS] = (...args: unknown[]) => {
			const text = args.filter((arg) => typeof arg === 'string').join(' ')
			const others = args.filter((arg) => typeof arg !== 'string')
			const err = others.find((arg) => arg instanceof Error)
			const detail = others.filter((arg) => arg !== err)
			logger[level]({ console: method, ...(err ? { err } : {}), ...(detail.length > 0 ? { detail } : {}) }, text || (err as Error | undefined)?.message || '')
		}
	}
}
