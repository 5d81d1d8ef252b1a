/**
 * The Store's currency [R118]: chosen in Store Admin while the Store has no Order, fixed from
 * the first one on, on both engines. Each test makes a Store of its own (the runtime Store of a
 * shared test database has Orders from other files).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import { cartRepository } from '../cart/cart.server'
import type { AdminViewer } from '../data/viewer'
import { placeOrder } from '../orders/checkout.server'
import { STORE_CURRENCIES } from './currencies'
import { storeRepository } from './store.server'

describe('the currencies a Store may choose', () => {
	it('all have two minor digits, as prices and refunds are entered [R118]', () => {
		for (const code of STORE_CURRENCIES) {
			expect(new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits, code).toBe(2)
		}
	})
})

describe.each(PROVIDERS)('the Store currency on %s', (provider) => {
	let t: TestDatabase
	let userId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		userId = (await signUpCustomer(t.auth)).userId
	})
	afterAll(() => t.db.$disconnect())

	/** A new Store with one product and the offline Connection, and its admin. */
	async function newStore() {
		const store = await t.db.store.create({ data: { handle: `cur-${randomUUID()}`, name: 'Currency test' }, select: { id: true } })
		await offline(t.db, store.id)
		const product = await createProduct(t.db, store.id, { priceMinor: 1250, stock: 50 })
		const admin: AdminViewer = { kind: 'user', role: 'admin', storeId: store.id, userId, email: 'owner@example.com', name: 'Owner' }
		return { storeId: store.id, productId: product.id, repo: storeRepository(t.db, admin) }
	}
	async function buy(storeId: string, productId: string) {
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: productId, quantity: 1 })
		return (await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })).order
	}
	const currencyOf = async (storeId: string) => (await t.db.store.findUniqueOrThrow({ where: { id: storeId }, select: { currency: true } })).currency

	it('is chosen before the first Order, audited, and the Order is then placed in it [R118]', async () => {
		const { storeId, productId, repo } = await newStore()
		expect(await repo.settings()).toMatchObject({ currency: 'USD', currencyFixed: false })
		await repo.updateProfile({ name: 'Currency test', currency: 'EUR' })
		expect(await repo.settings()).toMatchObject({ currency: 'EUR', currencyFixed: false })
		const audit = await t.db.auditEntry.findFirstOrThrow({ where: { storeId, action: 'store.update' }, select: { detail: true } })
		expect(JSON.parse(audit.detail ?? '{}')).toMatchObject({ currency: { from: 'USD', to: 'EUR' } })
		const order = await buy(storeId, productId)
		expect(order.currency).toBe('EUR')
		expect(await repo.settings()).toMatchObject({ currency: 'EUR', currencyFixed: true })
	})

	it('refuses to change the currency once the Store has an Order, changing nothing else either [R118]', async () => {
		const { storeId, productId, repo } = await newStore()
		await buy(storeId, productId)
		await expect(repo.updateProfile({ name: 'Renamed', currency: 'GBP' })).rejects.toMatchObject({ status: 409, field: 'currency' })
		expect(await t.db.store.findUniqueOrThrow({ where: { id: storeId }, select: { name: true, currency: true } })).toEqual({
			name: 'Currency test',
			currency: 'USD',
		})
		// The same currency again is no change: the rest of the profile saves.
		await repo.updateProfile({ name: 'Renamed', currency: 'USD' })
		expect(await repo.settings()).toMatchObject({ name: 'Renamed', currency: 'USD', currencyFixed: true })
	})

	it('refuses a currency outside the list, however it is spelled [R118]', async () => {
		const { storeId, repo } = await newStore()
		for (const currency of ['JPY', 'usd', 'EURO', '', 'X'.repeat(300)]) {
			await expect(repo.updateProfile({ name: 'Currency test', currency }), currency).rejects.toMatchObject({ status: 400, field: 'currency' })
		}
		expect(await currencyOf(storeId)).toBe('USD')
	})

	it('never lets a change of currency and a checkout at the same moment disagree: every Order is in the currency the Store keeps [R118]', async () => {
		for (let round = 0; round < 4; round++) {
			const { storeId, productId, repo } = await newStore()
			const [changed, placed] = await Promise.allSettled([repo.updateProfile({ name: 'Currency test', currency: 'CHF' }), buy(storeId, productId)])
			expect(placed.status).toBe('fulfilled')
			const currency = await currencyOf(storeId)
			const orders = await t.db.order.findMany({ where: { storeId }, select: { currency: true } })
			expect(orders.map((o) => o.currency)).toEqual([currency])
			// Refused only because the Order came first.
			if (changed.status === 'rejected') expect(changed.reason).toMatchObject({ status: 409 })
			else expect(currency).toBe('CHF')
		}
	})
})
