import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, currentRequestId, log, registerSecret, rememberSecretsFromEnvironment, routeConsoleToLog, runWithRequestId } from './logger.server'
import { isSecretField, scrubFields, scrubUrlCredentials, secretReplacer, secretValuesFrom } from './redact'
import { REQUEST_ID_HEADER, loggablePath, requestIdFrom, requestLogging } from './request-log.server'
import { recordLogs } from '../../tests/helpers/log'
import { expectErrorLog } from '../../tests/setup/fail-on-error-log'

/** A logger of the store's configuration whose lines the test reads, parsed. */
function testLogger() {
	const lines: string[] = []
	const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) }, level: 'debug' })
	return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, any>) }
}

const SECRET_ENV = {
	AUTH_SECRET: 'canary-auth-Q7xv93kLmPz0wR4tY8uB2nC6',
	AUTH_SECRET_PREVIOUS: 'canary-previous-one-Jd82kq,canary-previous-two-Lm29xc',
	SVC_ADMIN_OAUTH_CLIENT_SECRET: 'canary-oauth-secret-9f8e7d',
	SVC_WORKLOAD_CREDENTIAL: 'canary-workload-3c4d5e',
	STRIPE_SECRET_KEY: 'sk_test_canary_51Hx9aZ',
	STRIPE_WEBHOOK_SECRET: 'whsec_canary_8bKq2',
	S3_ACCESS_KEY_ID: 'AKIACANARY7QX2',
	S3_SECRET_ACCESS_KEY: 'canary/s3+secret=key',
	ADMIN_PASSWORD: 'canary-admin-pw-77aa',
	DATABASE_URL: 'postgresql://store:canary-db-p%40ss@127.0.0.1:5432/store',
	REDIS_URL: 'redis://:canary-redis-pw@127.0.0.1:6379',
}
const secretsOf = (env: Record<string, string>) => secretValuesFrom(env)

describe('redaction by field name [R13]', () => {
	it('knows every secret-shaped field, in any spelling, and leaves ordinary ones alone', () => {
		for (const name of [
			'authorization',
			'Authorization',
			'cookie',
			'set-cookie',
			'Set-Cookie',
			'password',
			'newPassword',
			'currentPassword',
			'token',
			'accessToken',
			'refresh_token',
			'idToken',
			'secret',
			'clientSecret',
			'client_secret',
			'apiKey',
			'x-api-key',
			'webhookSecret',
			'AUTH_SECRET',
			'AUTH_SECRET_PREVIOUS',
			'SVC_ADMIN_OAUTH_CLIENT_SECRET',
			'SVC_WORKLOAD_CREDENTIAL',
			'STRIPE_SECRET_KEY',
			'STRIPE_WEBHOOK_SECRET',
			'S3_ACCESS_KEY_ID',
			'S3_SECRET_ACCESS_KEY',
			'EMAIL_SERVICE_API_KEY',
			'secretKey',
		]) {
			expect(isSecretField(name), name).toBe(true)
		}
		for (const name of ['method', 'path', 'status', 'email', 'orderNumber', 'key', 'reqId', 'msg', 'keys', 'monkey'])
			expect(isSecretField(name), name).toBe(false)
	})

	it('replaces each secret-shaped field of a line, at the top and nested at any depth', () => {
		const { logger, records } = testLogger()
		logger.info(
			{
				password: 'pw-top',
				body: { newPassword: 'pw-new', currentPassword: 'pw-current', profile: { idToken: 'id-tok', nested: [{ refreshToken: 'rt-deep' }] } },
				req: { headers: { authorization: 'Bearer abc', cookie: 'session=abc', 'x-api-key': 'k-1', accept: 'text/html' } },
				res: { headers: { 'set-cookie': 'session=def' } },
				provider: { clientSecret: 'cs', apiKey: 'ak', webhookSecret: 'ws', accessToken: 'at', token: 't' },
				env: { AUTH_SECRET: 'as', STRIPE_SECRET_KEY: 'sk', S3_SECRET_ACCESS_KEY: 's3' },
				email: 'shopper@example.com',
			},
			'signed in',
		)
		const [line] = records()
		expect(line).toMatchObject({
			password: '[redacted]',
			body: { newPassword: '[redacted]', currentPassword: '[redacted]', profile: { idToken: '[redacted]', nested: [{ refreshToken: '[redacted]' }] } },
			req: { headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]', accept: 'text/html' } },
			res: { headers: { 'set-cookie': '[redacted]' } },
			provider: { clientSecret: '[redacted]', apiKey: '[redacted]', webhookSecret: '[redacted]', accessToken: '[redacted]', token: '[redacted]' },
			env: { AUTH_SECRET: '[redacted]', STRIPE_SECRET_KEY: '[redacted]', S3_SECRET_ACCESS_KEY: '[redacted]' },
			email: 'shopper@example.com',
			msg: 'signed in',
		})
	})

	it('does not change the object it was given, and survives a cycle', () => {
		const fields: Record<string, unknown> = { password: 'kept', inner: { token: 'kept too' } }
		fields.self = fields
		const scrubbed = scrubFields(fields)
		expect(fields.password).toBe('kept')
		expect((fields.inner as { token: string }).token).toBe('kept too')
		expect(scrubbed).toMatchObject({ password: '[redacted]', inner: { token: '[redacted]' }, self: '[circular]' })
	})
})

describe('URLs with credentials [R13]', () => {
	it('keeps the address and the user but never the password', () => {
		expect(scrubUrlCredentials('postgresql://store:s3cret@db.internal:5432/store')).toBe('postgresql://store:[redacted]@db.internal:5432/store')
		expect(scrubUrlCredentials('connect to postgres://u:p%40ss@h/db failed')).toBe('connect to postgres://u:[redacted]@h/db failed')
		expect(scrubUrlCredentials('redis://:hunter22@127.0.0.1:6379')).toBe('redis://:[redacted]@127.0.0.1:6379')
		expect(scrubUrlCredentials('rediss://hunter22@cache:6380')).toBe('rediss://[redacted]@cache:6380')
		// Nothing secret in these: left as they are.
		expect(scrubUrlCredentials('postgresql://postgres@127.0.0.1:5432/postgres')).toBe('postgresql://postgres@127.0.0.1:5432/postgres')
		expect(scrubUrlCredentials('mail shopper@example.com about https://shop.example/orders')).toBe('mail shopper@example.com about https://shop.example/orders')
	})

	it('applies to DATABASE_URL and REDIS_URL fields, to messages and to error messages', () => {
		expectErrorLog(/\[redacted\]@db/)
		const { logger, lines } = testLogger()
		logger.info({ DATABASE_URL: 'postgresql://store:field-pass@db/store', config: { redisUrl: 'redis://:nested-pass@cache:6379' } }, 'configured')
		logger.warn('could not reach postgresql://store:message-pass@db/store')
		logger.error({ err: new Error('connect ECONNREFUSED postgresql://store:error-pass@db/store') }, 'failed')
		logger.error(new Error('thrown with postgresql://store:bare-error-pass@db/store'))
		const text = lines.join('')
		for (const password of ['field-pass', 'nested-pass', 'message-pass', 'error-pass', 'bare-error-pass']) expect(text).not.toContain(password)
		expect(text).toContain('postgresql://store:[redacted]@db/store')
	})
})

describe('every configured secret value, replaced in the finished line [R13]', () => {
	const saved = { ...process.env }
	afterEach(() => {
		for (const name of Object.keys(SECRET_ENV)) {
			if (saved[name] === undefined) delete process.env[name]
			else process.env[name] = saved[name]
		}
		rememberSecretsFromEnvironment()
	})

	it('reads the secrets from the environment: each named variable, each previous secret, the passwords in connection strings', () => {
		const values = secretsOf(SECRET_ENV)
		for (const value of [
			SECRET_ENV.AUTH_SECRET,
			'canary-previous-one-Jd82kq',
			'canary-previous-two-Lm29xc',
			SECRET_ENV.SVC_WORKLOAD_CREDENTIAL,
			SECRET_ENV.STRIPE_WEBHOOK_SECRET,
			SECRET_ENV.S3_ACCESS_KEY_ID,
			SECRET_ENV.ADMIN_PASSWORD,
			'canary-db-p@ss',
			'canary-redis-pw',
		]) {
			expect(values).toContain(value)
		}
		expect(secretsOf({ DATABASE_URL: 'file:./data/store.db', REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([])
	})

	it("keeps an Error's message and stack carrying a secret out of the log, whatever field holds it", () => {
		expectErrorLog(/signing failed with \[redacted\]/)
		Object.assign(process.env, SECRET_ENV)
		rememberSecretsFromEnvironment()
		const { logger, lines } = testLogger()
		const error = new Error(`signing failed with ${SECRET_ENV.AUTH_SECRET}`, { cause: new Error(`key ${SECRET_ENV.STRIPE_SECRET_KEY}`) })
		logger.error({ err: error }, 'unexpected')
		logger.error(error)
		logger.error({ what: { happened: error } }, `while using ${SECRET_ENV.SVC_WORKLOAD_CREDENTIAL}`)
		logger.warn({ note: `db password ${decodeURIComponent('canary-db-p%40ss')}`, s3: SECRET_ENV.S3_SECRET_ACCESS_KEY }, 'odd')
		logger.info({ header: `Basic ${Buffer.from(SECRET_ENV.ADMIN_PASSWORD).toString('base64')}` }, encodeURIComponent(SECRET_ENV.S3_SECRET_ACCESS_KEY))
		const text = lines.join('')
		for (const secret of secretsOf(SECRET_ENV)) {
			for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), JSON.stringify(secret).slice(1, -1)]) {
				expect(text, secret).not.toContain(form)
			}
		}
		expect(text).toContain('signing failed with [redacted]')
		expect(lines.every((line) => JSON.parse(line))).toBe(true)
	})

	it('replaces a secret learned at run time (a payment Connection key) too', () => {
		const { logger, lines } = testLogger()
		registerSecret('sk_live_learned_at_runtime_123')
		logger.warn('the provider refused sk_live_learned_at_runtime_123')
		expect(lines.join('')).not.toContain('sk_live_learned_at_runtime_123')
	})

	it('replaces a secret that contains another whole, and ignores values too short to be secrets', () => {
		const replace = secretReplacer(['abcdefgh', 'abcdefgh-and-more', 'abc'])
		expect(replace('x abcdefgh-and-more y abcdefgh z abc')).toBe('x [redacted] y [redacted] z abc')
	})
})

describe('the request id', () => {
	it('accepts a sane incoming id and makes one otherwise', () => {
		expect(requestIdFrom('edge-1234.abc_DEF')).toBe('edge-1234.abc_DEF')
		for (const bad of [undefined, '', 'a'.repeat(129), 'has space', 'new\nline', '<script>', ['two', 'values']]) {
			expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/)
		}
	})

	it('is on every line logged inside the request, across awaits, and on none outside it', async () => {
		const { logger, records } = testLogger()
		logger.info('before')
		await runWithRequestId('req-42', async () => {
			logger.info('first')
			await new Promise((resolve) => setTimeout(resolve, 5))
			expect(currentRequestId()).toBe('req-42')
			logger.warn('after an await')
		})
		logger.info('after')
		expect(records().map((record) => [record.msg, record.reqId])).toEqual([
			['before', undefined],
			['first', 'req-42'],
			['after an await', 'req-42'],
			['after', undefined],
		])
	})

	it('keeps the path in the log free of queries and order tokens', () => {
		expect(loggablePath('/orders/tok_abcdef123456?paid=1')).toBe('/orders/[token]')
		expect(loggablePath('/newsletter/unsubscribe?token=signed')).toBe('/newsletter/unsubscribe')
		expect(loggablePath('/products/a\nb')).toBe('/products/a\\xab')
	})

	describe('over HTTP', () => {
		let server: Server
		let origin: string
		beforeAll(async () => {
			const middleware = requestLogging()
			server = createServer((req, res) =>
				middleware(req, res, async () => {
					await new Promise((resolve) => setTimeout(resolve, 2))
					log.warn('[test] inside the handler')
					res.statusCode = req.url === '/fail' ? 500 : 200
					res.end('ok')
				}),
			)
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
			origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
		})
		afterAll(() => new Promise((resolve) => server.close(resolve)))

		it('echoes a valid incoming id, and every line of the request carries it', async () => {
			const logged = recordLogs()
			const answer = await fetch(`${origin}/cart?token=abc`, { headers: { [REQUEST_ID_HEADER]: 'proxy-id-1' } })
			await answer.text()
			await new Promise((resolve) => setTimeout(resolve, 20))
			logged.stop()
			expect(answer.headers.get(REQUEST_ID_HEADER)).toBe('proxy-id-1')
			const mine = logged.records.filter((record) => record.reqId === 'proxy-id-1')
			expect(mine.map((record) => record.msg)).toEqual(['[test] inside the handler', 'request'])
			expect(mine[1]).toMatchObject({ method: 'GET', path: '/cart', status: 200, levelName: 'info' })
		})

		it('replaces a configured secret in the request line too, though its fields skip the per-field walk [R13]', async () => {
			registerSecret('canary-path-secret-4b7e1d')
			const logged = recordLogs()
			await (await fetch(`${origin}/files/canary-path-secret-4b7e1d`)).text()
			await new Promise((resolve) => setTimeout(resolve, 20))
			logged.stop()
			const line = logged.records.find((record) => record.msg === 'request' && String(record.path).startsWith('/files/'))
			expect(line?.path).toBe('/files/[redacted]')
			expect(JSON.stringify(logged.records)).not.toContain('canary-path-secret-4b7e1d')
		})

		it('makes an id for a request without one (or with a bad one) and logs a 5xx at warn', async () => {
			const logged = recordLogs()
			const answer = await fetch(`${origin}/fail`, { headers: { [REQUEST_ID_HEADER]: 'bad id with spaces' } })
			await answer.text()
			await new Promise((resolve) => setTimeout(resolve, 20))
			logged.stop()
			const id = answer.headers.get(REQUEST_ID_HEADER)!
			expect(id).toMatch(/^[0-9a-f-]{36}$/)
			expect(logged.records.filter((record) => record.reqId === id).map((record) => [record.msg, record.levelName])).toEqual([
				['[test] inside the handler', 'warn'],
				['request', 'warn'],
			])
		})
	})
})

describe('the console, once routed through the logger [R13]', () => {
	it('turns a library console line into a redacted JSON line with its Error as err and its values as detail', () => {
		expectErrorLog(/# SERVER_ERROR/)
		const { logger, records } = testLogger()
		const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn, error: console.error }
		try {
			routeConsoleToLog(logger)
			console.error('# SERVER_ERROR:', new Error('boom at postgresql://u:console-pass@db/x'))
			console.warn('[lib] careful', { clientSecret: 'console-cs', harmless: 1 })
			console.log('plain')
		} finally {
			Object.assign(console, saved)
		}
		const lines = records()
		expect(lines.map((line) => [line.levelName, line.msg])).toEqual([
			['error', '# SERVER_ERROR:'],
			['warn', '[lib] careful'],
			['info', 'plain'],
		])
		expect(lines[0]!.err).toMatchObject({ type: 'Error', message: 'boom at postgresql://u:[redacted]@db/x' })
		expect(lines[1]!.detail).toEqual([{ clientSecret: '[redacted]', harmless: 1 }])
	})
})
