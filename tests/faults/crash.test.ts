/**
 * The server SIGKILLed in the middle of a crowd of checkouts, then started again on the same
 * database [R67]: every Order is whole or absent, stock + sold stays what it was, and each
 * guest's replayed submit (same idempotency key) ends with exactly one Order, never a 5xx.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { DatabaseProvider } from '../../app/config/database-url'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { createProduct } from '../helpers/commerce'
import { PROVIDERS } from '../helpers/databases'
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres'
import { Guest } from '../helpers/shopper'
import { expectOrdersWhole, figures, prepareDatabase, waitUntil } from './support'

const GUESTS = 40

describe.each(PROVIDERS)('SIGKILL mid-checkout, then restart, on %s [R67]', (provider: DatabaseProvider) => {
	const cleanups: Array<() => Promise<void> | void> = []
	afterAll(async () => {
		for (const cleanup of cleanups.reverse()) await cleanup()
	})

	async function databaseUrl() {
		if (provider === 'postgresql') {
			const created = await createTestDatabase('store_faults')
			cleanups.push(() => dropTestDatabase(created.name))
			return created.url
		}
		const dir = mkdtempSync(path.join(tmpdir(), 'store-faults-crash-'))
		cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
		return `file:${path.join(dir, 'store.db')}`
	}

	it('leaves no lost or half-written Order, and every replayed submit ends in exactly one Order', async () => {
		const url = await databaseUrl()
		const database = await prepareDatabase(url)
		cleanups.push(() => database.db.$disconnect())
		const products = await Promise.all(Array.from({ length: 4 }, () => createProduct(database.db, database.storeId, { stock: 100, priceMinor: 1500 })))
		const initial = new Map(products.map((product) => [product.id, 100]))

		let store: StoreProcess = await startStoreProcess({ databaseUrl: url, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		const guests = Array.from({ length: GUESTS }, () => new Guest(store.origin))
		const forms = await Promise.all(
			guests.map(async (guest, index) => {
				await guest.add(products[index % products.length]!.id, 2)
				await guest.add(products[(index + 1) % products.length]!.id, 1)
				return guest.checkoutForm(`crash-${index}@example.com`)
			}),
		)

		// Every guest submits at once; the server dies while the submits are being handled.
		const submits = guests.map((guest, index) =>
			guest.send('/checkout', forms[index]).then(
				(r) => r.status,
				() => 0,
			),
		)
		// Killed once the first Orders are committed, so others are mid-transaction.
		await waitUntil('the first Orders are placed', async () => (await database.db.order.count({ where: { storeId: database.storeId } })) >= 3, 60_000, 5)
		await store.crash()
		const first = await Promise.all(submits)
		const placedBeforeCrash = await expectOrdersWhole(database.db, database.storeId, initial)
		expect(placedBeforeCrash).toBeGreaterThanOrEqual(3)

		const crashed = store
		store = await startStoreProcess({ share: crashed, env: { E2E_DEMO: '0' } })
		cleanups.push(() => store.stop())
		const replays = await Promise.all(
			guests.map((guest, index) => {
				guest.origin = store.origin
				return guest.send('/checkout', forms[index])
			}),
		)
		const statuses = replays.map((response) => response.status)
		expect(statuses.filter((status) => status >= 500)).toEqual([])
		expect(statuses.every((status) => status === 302)).toBe(true)

		await expectOrdersWhole(database.db, database.storeId, initial)
		for (let index = 0; index < GUESTS; index++) {
			expect(await database.db.order.count({ where: { storeId: database.storeId, email: `crash-${index}@example.com` } }), `guest ${index}`).toBe(1)
		}
		figures(`sigkill-checkout-${provider}`, { guests: GUESTS, answeredBeforeCrash: first.filter((status) => status === 302).length, placedBeforeCrash })
	})
})
