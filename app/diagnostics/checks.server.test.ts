import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_FALLBACK_AUTH_SECRET } from '../config/secret-policy'
import { PROVIDERS, openPrivateTestDatabase } from '../../tests/helpers/databases'
import { hashPassword } from '../auth/password-hashing.server'
import { DEFAULT_ADMIN_PASSWORD } from '../auth/seed-admin.server'
import { authSecretCheck, configOf, EXAMPLE_AUTH_SECRET, publicUrlCheck, seededAdminChecks, unreadVariableChecks } from './checks.server'

const strong = () => randomBytes(32).toString('base64')

describe('the pre-exposure checklist [R80]', () => {
	it('fails AUTH_SECRET unset, the .env.example value, the fallback, short, weak, or equal to another secret [R10] [R11]', () => {
		expect(authSecretCheck({}).status).toBe('fail')
		expect(authSecretCheck({ AUTH_SECRET: EXAMPLE_AUTH_SECRET }).found).toContain('.env.example')
		expect(authSecretCheck({ AUTH_SECRET: DEV_FALLBACK_AUTH_SECRET }).status).toBe('fail')
		expect(authSecretCheck({ AUTH_SECRET: 'short' }).status).toBe('fail')
		expect(authSecretCheck({ AUTH_SECRET: 'ab'.repeat(24) }).status).toBe('fail')
		const secret = strong()
		for (const other of ['STRIPE_WEBHOOK_SECRET', 'SVC_WORKLOAD_CREDENTIAL', 'ADMIN_PASSWORD', 'S3_SECRET_ACCESS_KEY']) {
			const line = authSecretCheck({ AUTH_SECRET: secret, [other]: secret })
			expect(line.status, other).toBe('fail')
			expect(line.found).toContain(other)
		}
		expect(authSecretCheck({ AUTH_SECRET: secret, AUTH_SECRET_PREVIOUS: `${strong()},${secret}` }).found).toContain('AUTH_SECRET_PREVIOUS')
		const pass = authSecretCheck({ AUTH_SECRET: secret, STRIPE_WEBHOOK_SECRET: strong() })
		expect(pass.status).toBe('pass')
		// No line ever carries the secret itself.
		expect(JSON.stringify([pass, authSecretCheck({ AUTH_SECRET: secret, ADMIN_PASSWORD: secret })])).not.toContain(secret)
	})

	it('asks for one https public origin in APP_URL and AUTH_URL, warning on an https localhost outside production [R12]', () => {
		expect(publicUrlCheck({}).status).toBe('fail')
		expect(publicUrlCheck({ APP_URL: 'https://shop.example.com' }).found).toContain('AUTH_URL')
		expect(publicUrlCheck({ APP_URL: 'https://shop.example.com', AUTH_URL: 'https://auth.example.com' }).status).toBe('fail')
		expect(publicUrlCheck({ APP_URL: 'http://shop.example.com', AUTH_URL: 'http://shop.example.com' }).found).toContain('not https')
		expect(publicUrlCheck({ APP_URL: 'http://localhost:3000', AUTH_URL: 'http://localhost:3000' }).status).toBe('fail')
		expect(publicUrlCheck({ APP_URL: 'https://localhost:3000', AUTH_URL: 'https://localhost:3000' }).status).toBe('warn')
		expect(publicUrlCheck({ APP_URL: 'https://localhost:3000', AUTH_URL: 'https://localhost:3000', NODE_ENV: 'production' }).status).toBe('fail')
		expect(publicUrlCheck({ APP_URL: 'https://shop.example.com/', AUTH_URL: 'https://shop.example.com' }).status).toBe('pass')
	})

	it('warns that social sign-in variables enable nothing, and says an email key alone creates no flow [R21] [R22]', () => {
		const [social, email] = unreadVariableChecks({ GOOGLE_CLIENT_ID: 'x', GITHUB_CLIENT_SECRET: 'y', EMAIL_SERVICE_API_KEY: 'k' })
		expect(social).toMatchObject({ id: 'social-login', status: 'warn' })
		expect(social!.found).toContain('GOOGLE_CLIENT_ID')
		expect(social!.found).not.toContain('y ')
		expect(email).toMatchObject({ id: 'email-service', status: 'info' })
		expect(email!.found).toContain('alone creates no reset')
		const sending = unreadVariableChecks({
			EMAIL_SMTP_URL: 'smtp://mailer@smtp.example.com:587',
			EMAIL_FROM: 'shop@example.com',
			EMAIL_SERVICE_API_KEY: 'key-123456',
		})[1]!
		expect(sending.found).toContain('smtp.example.com:587')
		expect(sending.found).not.toContain('mailer')
		expect(sending.found).not.toContain('key-123456')
		expect(unreadVariableChecks({}).map((line) => line.status)).toEqual(['pass', 'info'])
	})

	it('reports a configuration production refuses as a failing line and still checks the rest', () => {
		const { refusal, config } = configOf({ NODE_ENV: 'production', AUTH_SECRET: 'short', DATABASE_URL: 'file:./x.db' })
		expect(refusal?.status).toBe('fail')
		expect(refusal?.found).toContain('Refusing to start')
		expect(config.databaseProvider).toBe('sqlite')
	})
})

describe.each(PROVIDERS)('the checklist’s admin lookup, on %s [R23]', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
	})
	afterAll(() => t?.close())

	const account = async (email: string, role: string, password: string) => {
		const id = randomBytes(12).toString('hex')
		await t.db.user.create({ data: { id, name: email, email, role, storeId: t.storeId, emailVerified: true } })
		await t.db.account.create({ data: { id: `acc-${id}`, userId: id, accountId: id, providerId: 'credential', password: await hashPassword(password) } })
	}

	it('finds every admin on the published password, whatever else its role string holds, and no customer', async () => {
		await account('plain-admin@example.com', 'admin', DEFAULT_ADMIN_PASSWORD)
		await account('two-roles@example.com', 'user,admin', DEFAULT_ADMIN_PASSWORD)
		await account('support-admin@example.com', 'admin,support', DEFAULT_ADMIN_PASSWORD)
		await account('customer@example.com', 'user', DEFAULT_ADMIN_PASSWORD)
		await account('support@example.com', 'support', DEFAULT_ADMIN_PASSWORD)
		await account('own-admin@example.com', 'admin', `own-${randomBytes(8).toString('hex')}`)
		const [password] = await seededAdminChecks(t.db)
		expect(password!.status).toBe('fail')
		for (const admin of ['plain-admin@example.com', 'two-roles@example.com', 'support-admin@example.com']) expect(password!.found).toContain(admin)
		for (const other of ['customer@example.com', 'support@example.com', 'own-admin@example.com']) expect(password!.found).not.toContain(other)
		expect(password!.found).toMatch(/^3 admin accounts/)
	})
})
