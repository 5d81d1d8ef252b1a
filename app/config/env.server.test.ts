import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DEV_FALLBACK_AUTH_SECRET } from './secret-policy'
import { ConfigError, parseConfig, publicConfig } from './env.server'

const strong = () => randomBytes(32).toString('base64')

function startFailure(env: Record<string, string | undefined>) {
	try {
		parseConfig(env)
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError)
		return (error as Error).message
	}
	throw new Error('expected the configuration to be refused')
}

describe('configuration [R10] (configuration values, rules 1-2)', () => {
	it('refuses production without AUTH_SECRET, naming the rule', () => {
		expect(startFailure({ NODE_ENV: 'production' })).toContain('[rule: missing]')
	})

	it.each([
		['too-short', 'x7#Kp2!vQ9'],
		['known-default', 'better-auth-secret-12345678901234567890'],
		['dev-fallback', DEV_FALLBACK_AUTH_SECRET],
		['low-entropy', 'ab'.repeat(24)],
		['guessable', 'qwertyuiopasdfghjklzxcvbnm123456'],
		['guessable', 'my-super-secret-auth-key-for-the-store-2024'],
	])('refuses production with a %s secret and never prints it', (rule, secret) => {
		const message = startFailure({ NODE_ENV: 'production', AUTH_SECRET: secret })
		expect(message).toContain(`[rule: ${rule}]`)
		expect(message).not.toContain(secret)
	})

	it('production names the development fallback when it is supplied', () => {
		const message = startFailure({ NODE_ENV: 'production', AUTH_SECRET: DEV_FALLBACK_AUTH_SECRET })
		expect(message).toMatch(/development fallback/)
	})

	it('starts in production with a strong secret', () => {
		const secret = strong()
		const config = parseConfig({ NODE_ENV: 'production', AUTH_SECRET: secret })
		expect(config.authSecret).toBe(secret)
		expect(config.usesDevFallbackSecret).toBe(false)
	})

	it.each(['development', 'test'])('uses the local-only fallback in %s', (NODE_ENV) => {
		const config = parseConfig({ NODE_ENV })
		expect(config.authSecret).toBe(DEV_FALLBACK_AUTH_SECRET)
		expect(config.usesDevFallbackSecret).toBe(true)
	})

	it('defaults to the embedded SQLite database and localhost URLs', () => {
		const config = parseConfig({})
		expect(config.databaseProvider).toBe('sqlite')
		expect(config.databaseUrl).toBe('file:./data/store.db')
		expect(config.authUrl).toBe('http://localhost:3000')
		expect(config.appUrl).toBe(config.authUrl)
	})

	it('lets the public URL follow PORT when AUTH_URL and APP_URL are unset or empty [R12]', () => {
		for (const env of [{ PORT: '3918' }, { PORT: '3918', AUTH_URL: '', APP_URL: '' }]) {
			const config = parseConfig(env)
			expect(config.authUrl).toBe('http://localhost:3918')
			expect(config.appUrl).toBe('http://localhost:3918')
			expect(config.publicUrlConfigured).toBe(false)
			expect(config.trustedOrigins).toEqual(['http://localhost:3918', 'http://127.0.0.1:3918'])
		}
	})

	it('trusts only the configured public URL once one is set', () => {
		const config = parseConfig({ PORT: '3918', AUTH_URL: 'https://shop.example/' })
		expect(config.appUrl).toBe('https://shop.example')
		expect(config.trustedOrigins).toEqual(['https://shop.example'])
		expect(config.publicUrlConfigured).toBe(true)
	})

	it('chooses PostgreSQL from a postgresql:// URL and refuses other schemes', () => {
		expect(parseConfig({ DATABASE_URL: 'postgresql://u@h:5432/d' }).databaseProvider).toBe('postgresql')
		expect(startFailure({ DATABASE_URL: 'mysql://u@h/d' })).toMatch(/DATABASE_URL/)
	})

	it('refuses a malformed AUTH_URL without echoing values', () => {
		expect(startFailure({ AUTH_URL: 'javascript:alert(1)' })).toMatch(/AUTH_URL/)
	})

	it('passes only the public URL to the browser [R13]', () => {
		const secret = strong()
		const config = parseConfig({
			NODE_ENV: 'production',
			AUTH_SECRET: secret,
			SVC_ADMIN_OAUTH_CLIENT_SECRET: 'oauth-secret-value',
			DATABASE_URL: 'postgresql://store:db-password@db:5432/store',
		})
		const browser = JSON.stringify(publicConfig(config))
		expect(JSON.parse(browser)).toEqual({ appUrl: 'http://localhost:3000' })
		for (const secretValue of [secret, 'oauth-secret-value', 'db-password']) {
			expect(browser).not.toContain(secretValue)
		}
	})
})

describe('AUTH_SECRET_PREVIOUS: the secrets AUTH_SECRET replaced [R14]', () => {
	it('reads a comma-separated list, trimmed, each secret once; unset is none', () => {
		const [current, older, oldest] = [strong(), strong(), strong()]
		expect(parseConfig({ AUTH_SECRET: current }).previousAuthSecrets).toEqual([])
		const config = parseConfig({ NODE_ENV: 'production', AUTH_SECRET: current, AUTH_SECRET_PREVIOUS: ` ${older} ,${oldest},${older}, ` })
		expect(config.authSecret).toBe(current)
		expect(config.previousAuthSecrets).toEqual([older, oldest])
	})

	it('accepts a weak earlier secret (it only opens what it sealed), but never AUTH_SECRET itself, and prints neither', () => {
		expect(parseConfig({ NODE_ENV: 'production', AUTH_SECRET: strong(), AUTH_SECRET_PREVIOUS: DEV_FALLBACK_AUTH_SECRET }).previousAuthSecrets).toEqual([
			DEV_FALLBACK_AUTH_SECRET,
		])
		const current = strong()
		const message = startFailure({ NODE_ENV: 'production', AUTH_SECRET: current, AUTH_SECRET_PREVIOUS: `${strong()},${current}` })
		expect(message).toContain('AUTH_SECRET_PREVIOUS repeats AUTH_SECRET')
		expect(message).not.toContain(current)
	})
})

describe('proxy trust', () => {
	it('believes no X-Forwarded-For unless told how many proxies stand in front', () => {
		expect(parseConfig({}).trustProxy).toBe(0)
		expect(parseConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1)
		expect(() => parseConfig({ TRUST_PROXY: 'yes' })).toThrow(ConfigError)
	})
})

describe('sending mail and password recovery [R21]', () => {
	const smtp = { EMAIL_SMTP_URL: 'smtp://mailer@smtp.example.com:2525', EMAIL_FROM: 'Shop <shop@example.com>', EMAIL_SERVICE_API_KEY: 'key-1234567890' }

	it('sends nothing and offers no recovery by default, even with EMAIL_SERVICE_API_KEY alone', () => {
		expect(parseConfig({})).toMatchObject({ email: null, passwordRecovery: false })
		expect(parseConfig({ EMAIL_SERVICE_API_KEY: 'key-1234567890' })).toMatchObject({ email: null, passwordRecovery: false })
	})

	it('sends through the SMTP URL with the key as its password, recovery only when turned on', () => {
		expect(parseConfig(smtp)).toMatchObject({
			email: { host: 'smtp.example.com', port: 2525, secure: false, user: 'mailer', password: 'key-1234567890', from: 'Shop <shop@example.com>' },
			passwordRecovery: false,
		})
		expect(parseConfig({ ...smtp, PASSWORD_RECOVERY: 'on' }).passwordRecovery).toBe(true)
		expect(parseConfig({ ...smtp, EMAIL_SMTP_URL: 'smtps://smtp.example.com' }).email).toMatchObject({ port: 465, secure: true })
	})

	it('refuses half a configuration, a password in the URL, another scheme, a header in EMAIL_FROM, and recovery without sending', () => {
		expect(() => parseConfig({ EMAIL_SMTP_URL: smtp.EMAIL_SMTP_URL })).toThrow(/both EMAIL_SMTP_URL and EMAIL_FROM/)
		expect(() => parseConfig({ EMAIL_FROM: smtp.EMAIL_FROM })).toThrow(/both EMAIL_SMTP_URL and EMAIL_FROM/)
		expect(() => parseConfig({ ...smtp, EMAIL_SMTP_URL: 'smtp://user:secret@smtp.example.com' })).toThrow(/EMAIL_SERVICE_API_KEY, not in EMAIL_SMTP_URL/)
		expect(() => parseConfig({ ...smtp, EMAIL_SMTP_URL: 'http://smtp.example.com' })).toThrow(/smtp:\/\/ or smtps:\/\//)
		expect(() => parseConfig({ ...smtp, EMAIL_FROM: 'shop@example.com\r\nBcc: x@example.com' })).toThrow(/EMAIL_FROM must be one address/)
		expect(() => parseConfig({ PASSWORD_RECOVERY: 'on' })).toThrow(/PASSWORD_RECOVERY=on .* needs EMAIL_SMTP_URL and EMAIL_FROM/)
	})
})
