import { randomBytes, randomUUID } from 'node:crypto'
import { symmetricEncrypt } from 'better-auth/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, openPrivateTestDatabase, uniqueEmail } from '../../tests/helpers/databases'
import { cookieHeader } from '../../tests/helpers/http'
import { secretOf, unusedTotp } from '../../tests/helpers/totp'
import { createAuth } from '../auth/auth.server'
import { parseConfig } from '../config/env.server'
import { connectionScope, openSecret, openingSecrets, sealSecret } from './secret-box.server'
import { checkStoredSecrets, unreadableSecretsMessage } from './stored-secrets.server'

const newSecret = () => randomBytes(32).toString('base64')

// Each engine gets a database of its own: the check reads every stored secret of the database.
describe.each(PROVIDERS)('rotating AUTH_SECRET on %s [R14]', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	const [oldSecret, newSecretValue, strayEarlierSecret] = [newSecret(), newSecret(), newSecret()]
	const configWith = (env: Record<string, string>) => parseConfig({ NODE_ENV: 'test', DATABASE_URL: t.url, ...env })
	const stripe = { secretKey: `sk_test_${randomUUID()}`, webhookSecret: `whsec_${randomUUID()}` }
	const admin = { email: uniqueEmail('rotating-admin'), password: `pw-${randomUUID()}` }
	let totpSecret = ''
	let backupCodes: string[] = []
	let oldSessionCookie = ''

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		// Before the rotation: a Stripe Connection and an enrolled admin, both sealed with the old secret.
		const before = createAuth({ db: t.db, config: configWith({ AUTH_SECRET: oldSecret }) })
		const { response, headers } = await before.api.signUpEmail({ body: { name: 'Admin', ...admin }, returnHeaders: true })
		await t.db.user.update({ where: { id: response.user.id }, data: { role: 'admin' } })
		const signedIn = new Headers({ cookie: cookieHeader(headers) })
		const enabled = (await before.api.enableTwoFactor({ body: { password: admin.password }, headers: signedIn })) as { totpURI: string; backupCodes: string[] }
		totpSecret = secretOf(enabled.totpURI)
		backupCodes = enabled.backupCodes
		const confirmed = await before.api.verifyTOTP({ body: { code: await unusedTotp(totpSecret) }, headers: signedIn, returnHeaders: true })
		oldSessionCookie = cookieHeader(confirmed.headers)
		await t.db.connection.create({
			data: {
				storeId: t.storeId,
				handle: 'stripe',
				provider: 'stripe',
				displayName: 'Card',
				secretBox: sealSecret(stripe, connectionScope(t.storeId, 'stripe'), oldSecret),
			},
		})
		// A customer enrolled before two-factor values named their secret's version (bare hex).
		const legacy = await before.api.signUpEmail({ body: { name: 'Legacy', email: uniqueEmail('legacy'), password: `pw-${randomUUID()}` } })
		await t.db.twoFactor.create({
			data: {
				id: randomUUID(),
				userId: legacy.user.id,
				secret: await symmetricEncrypt({ key: oldSecret, data: 'JBSWY3DPEHPK3PXP' }),
				backupCodes: await symmetricEncrypt({ key: oldSecret, data: JSON.stringify(['aaaaa-11111']) }),
			},
		})
	}, 90_000)
	afterAll(() => t?.close())

	const storedRows = async () => ({
		connections: await t.db.connection.findMany({ select: { secretBox: true }, orderBy: { handle: 'asc' } }),
		twoFactors: await t.db.twoFactor.findMany({ select: { secret: true, backupCodes: true }, orderBy: { id: 'asc' } }),
	})

	it('refuses a new AUTH_SECRET alone, naming what cannot be read and the fix, and changes nothing [R14]', async () => {
		const before = await storedRows()
		const report = await checkStoredSecrets({ db: t.db, config: configWith({ AUTH_SECRET: newSecretValue, AUTH_SECRET_PREVIOUS: strayEarlierSecret }) })
		expect(report.resealed).toBe(0)
		expect(report.unreadable).toEqual(['the payment Connection "stripe"', 'the two-factor sign-in of 2 accounts'])
		const message = unreadableSecretsMessage(report.unreadable)
		expect(message).toContain('set AUTH_SECRET_PREVIOUS to that secret')
		for (const secret of [oldSecret, newSecretValue, strayEarlierSecret, stripe.secretKey]) expect(message).not.toContain(secret)
		expect(await storedRows()).toEqual(before)
	})

	it('reads them with AUTH_SECRET_PREVIOUS and seals them anew with AUTH_SECRET, once [R14]', async () => {
		const rotating = configWith({ AUTH_SECRET: newSecretValue, AUTH_SECRET_PREVIOUS: `${strayEarlierSecret}, ${oldSecret}` })
		expect(await checkStoredSecrets({ db: t.db, config: rotating })).toEqual({ resealed: 3, unreadable: [] })
		expect(await checkStoredSecrets({ db: t.db, config: rotating })).toEqual({ resealed: 0, unreadable: [] })
		// Now the new secret alone reads everything; the old one alone reads nothing.
		expect(await checkStoredSecrets({ db: t.db, config: configWith({ AUTH_SECRET: newSecretValue }) })).toEqual({ resealed: 0, unreadable: [] })
		expect((await checkStoredSecrets({ db: t.db, config: configWith({ AUTH_SECRET: oldSecret }) })).unreadable).toHaveLength(2)
	})

	it('after the rotation the Stripe keys decrypt, the admin’s TOTP and backup codes work, and sessions signed with the old secret have ended [R14]', async () => {
		const after = configWith({ AUTH_SECRET: newSecretValue })
		const box = (await t.db.connection.findFirstOrThrow({ where: { handle: 'stripe' } })).secretBox ?? ''
		expect(openSecret(box, connectionScope(t.storeId, 'stripe'), openingSecrets(after))).toEqual({ ...stripe })

		const auth = createAuth({ db: t.db, config: after })
		expect(await auth.api.getSession({ headers: new Headers({ cookie: oldSessionCookie }) })).toBeNull()
		const challenge = async () => {
			const { headers, response } = await auth.api.signInEmail({ body: admin, returnHeaders: true })
			expect(response).toMatchObject({ twoFactorRedirect: true })
			return new Headers({ cookie: cookieHeader(headers) })
		}
		const viaTotp = await auth.api.verifyTOTP({ body: { code: await unusedTotp(totpSecret) }, headers: await challenge(), returnHeaders: true })
		const session = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader(viaTotp.headers) }) })
		expect(session?.user.email).toBe(admin.email)
		await auth.api.verifyBackupCode({ body: { code: backupCodes[0] ?? '' }, headers: await challenge() })
	}, 90_000)
})
