import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { genericRequest, newWebhookSecret } from '../../tests/helpers/events'
import type { AdminViewer } from '../data/viewer'
import { adminConnectionsRepository } from './admin-connections.server'
import { receiveEvent } from './events/receive.server'
import { unverifiedScope } from '../data/scope'

describe.each(PROVIDERS)('Connections in Store Admin on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.db.$disconnect())

	it('keeps secrets write-only: encrypted at rest, never listed', async () => {
		const secret = newWebhookSecret()
		await adminConnectionsRepository(t.db, admin).create({ provider: 'generic', handle: 'ledger', displayName: 'Ledger', webhookSecret: secret })
		const listed = JSON.stringify(await adminConnectionsRepository(t.db, admin).list())
		expect(listed).not.toContain(secret)
		expect(listed).toContain('"hasSecrets":true')
		const row = await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: 'ledger' }, select: { secretBox: true } })
		expect(row.secretBox).toMatch(/^v1\./)
		expect(row.secretBox).not.toContain(secret.slice(6, 20))
		await expect(
			adminConnectionsRepository(t.db, admin).create({ provider: 'generic', handle: 'ledger', displayName: 'Again', webhookSecret: secret }),
		).rejects.toMatchObject({ status: 409 })
	})

	it('rotates with an overlap: old and new secrets both verify until the old one expires', async () => {
		const old = newWebhookSecret()
		const next = newWebhookSecret()
		await adminConnectionsRepository(t.db, admin).create({ provider: 'generic', handle: 'rotating', displayName: 'R', webhookSecret: old })
		await adminConnectionsRepository(t.db, admin).rotate('rotating', next)
		const body = { type: 'ping', occurred_at: Math.floor(Date.now() / 1000), data: {} }
		const receive = (secret: string, now = Date.now()) =>
			receiveEvent(unverifiedScope(t.db, t.storeId), { handle: 'rotating', request: genericRequest('http://s/api/events/rotating', body, secret), now })
		expect((await receive(next)).status).toBe(200)
		expect((await receive(old)).status).toBe(200)
		expect((await receive(old, Date.now() + 25 * 60 * 60 * 1000)).status).toBe(401)
		await expect(adminConnectionsRepository(t.db, { ...admin, storeId: 'another-store' }).rotate('rotating', next)).rejects.toMatchObject({ status: 404 })
	})

	it("keeps an offline Connection's payment instructions as text, refusing Stripe, another Store and bad input [R113]", async () => {
		const repo = adminConnectionsRepository(t.db, admin)
		const handle = `bank-${Math.random().toString(36).slice(2, 8)}`
		await repo.create({ provider: 'generic', handle, displayName: 'Bank', webhookSecret: newWebhookSecret() })
		const instructions = {
			bankName: 'Example Bank',
			accountHolder: 'Shop Ltd',
			accountNumber: 'DE89 3704 0044 0532 0130 00',
			reference: 'SHOP-{number}',
			note: '',
		}
		await repo.setInstructions(handle, instructions)
		expect((await repo.list()).find((c) => c.handle === handle)?.instructions).toEqual(instructions)

		const saved = async () =>
			(await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle }, select: { paymentInstructions: true } })).paymentInstructions
		const before = await saved()
		await expect(repo.setInstructions(handle, { ...instructions, accountNumber: 'DE89 3704 0044 0532 0130 01' })).rejects.toThrow(/IBAN/)
		await expect(repo.setInstructions(handle, { ...instructions, note: '<script>alert(1)</script>' })).rejects.toThrow(/plain text/)
		await expect(repo.setInstructions(handle, { ...instructions, reference: 'no placeholder' })).rejects.toThrow(/\{number\}/)
		await expect(repo.setInstructions(handle, { ...instructions, bankName: 'x'.repeat(81) })).rejects.toThrow(/at most 80/)
		await expect(adminConnectionsRepository(t.db, { ...admin, storeId: 'another-store' }).setInstructions(handle, instructions)).rejects.toMatchObject({
			status: 404,
		})
		const stripe = `stripe-${Math.random().toString(36).slice(2, 8)}`
		await repo.create({ provider: 'stripe', handle: stripe, displayName: 'Card', secretKey: 'sk_test_abcdefgh123', webhookSecret: newWebhookSecret() })
		await expect(repo.setInstructions(stripe, instructions)).rejects.toMatchObject({ status: 400 })
		expect(await saved()).toBe(before)
	})
})
