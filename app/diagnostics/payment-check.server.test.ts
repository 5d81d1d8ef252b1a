import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openTestDatabase } from '../../tests/helpers/databases'
import { configOf, paymentProviderCheck } from './checks.server'

const env = { AUTH_SECRET: randomBytes(32).toString('base64') }
const { config } = configOf(env)
const BANK = JSON.stringify({
	bankName: 'Bank',
	accountHolder: 'Shop Ltd',
	accountNumber: 'GB82 WEST 1234 5698 7654 32',
	reference: 'Order {number}',
	note: '',
})
const ON_DELIVERY = JSON.stringify({ bankName: '', accountHolder: '', accountNumber: '', reference: '', note: 'Pay the courier in cash.' })
const EMPTY = JSON.stringify({ bankName: '', accountHolder: '', accountNumber: '', reference: '', note: '' })

describe.each(PROVIDERS)('the payment line of the checklist on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openTestDatabase>>
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})

	/** A Store of its own with these Connections (all active unless said). */
	async function storeWith(connections: Array<{ provider: string; paymentInstructions?: string | null; active?: boolean }>) {
		const { id: storeId } = await anotherStore(t.db)
		for (const [index, connection] of connections.entries()) {
			await t.db.connection.create({
				data: {
					storeId,
					handle: `${connection.provider}-${index}`,
					displayName: 'Pay',
					provider: connection.provider,
					paymentInstructions: connection.paymentInstructions ?? null,
					active: connection.active ?? true,
				},
			})
		}
		return storeId
	}

	it('passes a shop that takes only bank transfer or payment on delivery once buyers are told how to pay [R131]', async () => {
		for (const instructions of [BANK, ON_DELIVERY]) {
			const line = await paymentProviderCheck(t.db, await storeWith([{ provider: 'offline', paymentInstructions: instructions }]), config, env)
			expect(line).toMatchObject({ id: 'payment-provider', status: 'pass' })
			expect(line.found).toContain('offline payment only')
		}
	})

	it('fails an offline shop without instructions, a shop with no way to pay, and an unverified provider [R131]', async () => {
		const cases: Array<[Parameters<typeof storeWith>[0], string]> = [
			[[{ provider: 'offline' }], 'not told how to pay'],
			[[{ provider: 'offline', paymentInstructions: EMPTY }], 'not told how to pay'],
			[[{ provider: 'offline', paymentInstructions: '{not json' }], 'not told how to pay'],
			[[], 'no way to pay'],
			[[{ provider: 'offline', paymentInstructions: BANK, active: false }], 'no way to pay'],
			// A provider configured is a provider checked, offline instructions or not.
			[[{ provider: 'offline', paymentInstructions: BANK }, { provider: 'stripe' }], 'no active Connection has a webhook secret'],
		]
		for (const [connections, found] of cases) {
			const line = await paymentProviderCheck(t.db, await storeWith(connections), config, env)
			expect(line.status, found).toBe('fail')
			expect(line.found).toContain(found)
			expect(line.fix).toMatch(/\S/)
		}
		const keyed = await paymentProviderCheck(t.db, await storeWith([{ provider: 'offline', paymentInstructions: BANK }]), config, {
			...env,
			STRIPE_SECRET_KEY: 'sk_test_x',
		})
		expect(keyed).toMatchObject({ status: 'fail', found: expect.stringContaining('STRIPE_SECRET_KEY is set') })
	})
})
