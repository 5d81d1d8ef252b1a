import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openTestDatabase, type TestDatabase } from '../../tests/helpers/databases'
import { unverifiedScope } from '../data/scope'
import { EMPTY_SNAPSHOT, plan } from './compiler'
import { CORE_VIEWS } from './core-views'
import { defineModule, tableOf } from './define'
import { ModuleConflictError, ModuleInputError, moduleData } from './data-service.server'

/** A Module of this test's own, with a field of every type, compiled into the shared database. */
const probe = defineModule({
	id: `probe_${process.pid}_${Math.floor(Math.random() * 1e6)}`,
	version: 1,
	fields: {
		label: { type: 'string', maxLength: 8 },
		amount: { type: 'integer', min: 0, max: 10 },
		flag: { type: 'boolean' },
		due: { type: 'timestamp', optional: true },
		product_id: { type: 'reference', to: 'product', optional: true },
	},
	indexes: [{ fields: ['label'], unique: true }],
	reads: ['purchases'],
})

describe.each(PROVIDERS)('ModuleDataService on %s [R31]', (provider) => {
	let t: TestDatabase
	let otherStoreId: string
	let productId: string
	let otherStoreProductId: string
	const data = () => moduleData(unverifiedScope(t.db, t.storeId), probe)
	const elsewhere = () => moduleData(unverifiedScope(t.db, otherStoreId), probe)

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		for (const statement of plan(EMPTY_SNAPSHOT, [probe], CORE_VIEWS).statements[provider].filter((s) => !s.includes('VIEW')))
			await t.db.$executeRawUnsafe(statement)
		otherStoreId = (await anotherStore(t.db)).id
		const product = (storeId: string) =>
			t.db.product.create({
				data: {
					storeId,
					slug: `p-${randomUUID()}`,
					title: 'P',
					description: '',
					priceMinor: 100,
					status: 'active',
					variants: { create: { storeId, priceMinor: 100, stock: 1 } },
				},
			})
		productId = (await product(t.storeId)).id
		otherStoreProductId = (await product(otherStoreId)).id
	}, 60_000)
	afterAll(async () => {
		await t.db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${tableOf(probe.id)}"`)
		await t.db.store.delete({ where: { id: otherStoreId } })
	})

	it('writes and reads every field type as Module code expects it, whatever the engine stores', async () => {
		const due = new Date('2026-12-01T10:00:00.123Z')
		const created = await data().create({ label: 'a', amount: 3, flag: true, due, product_id: productId })
		expect(created).toMatchObject({ label: 'a', amount: 3, flag: true, due, product_id: productId })
		const read = await data().get(created.id)
		expect(read).toEqual({ ...created, created_at: expect.any(Date), updated_at: expect.any(Date) })
		expect(read?.created_at.getTime()).toBe(created.created_at.getTime())
		const updated = await data().update(created.id, { flag: false, due: null })
		expect(updated).toMatchObject({ label: 'a', flag: false, due: null })
		expect(await data().delete(created.id)).toBe(true)
		expect(await data().get(created.id)).toBeNull()
	})

	it('refuses wrong types, lengths, ranges, unknown and missing fields, writing nothing', async () => {
		const good = { label: 'ok', amount: 1, flag: false, due: null, product_id: null }
		const bad: Record<string, unknown>[] = [
			{ ...good, label: 'much too long' },
			{ ...good, label: 42 },
			{ ...good, amount: 11 },
			{ ...good, amount: 1.5 },
			{ ...good, amount: '1' },
			{ ...good, flag: 'yes' },
			{ ...good, due: '2026-01-01' },
			{ ...good, product_id: "x' OR '1'='1" },
			{ ...good, extra: 1 },
			{ label: 'ok', amount: 1 },
		]
		const before = await data().count()
		for (const values of bad) await expect(data().create(values as never), JSON.stringify(values)).rejects.toBeInstanceOf(ModuleInputError)
		expect(await data().count()).toBe(before)
	})

	it('keeps every statement inside its Store: another Store’s rows are not there to read, change or delete [R4]', async () => {
		const mine = await data().create({ label: 'mine', amount: 1, flag: true, due: null, product_id: null })
		expect(await elsewhere().get(mine.id)).toBeNull()
		expect(await elsewhere().update(mine.id, { amount: 9 })).toBeNull()
		expect(await elsewhere().delete(mine.id)).toBe(false)
		expect((await elsewhere().list({ where: { label: 'mine' } })).rows).toEqual([])
		expect((await data().get(mine.id))?.amount).toBe(1)
		// A reference must name a record of the same Store.
		await expect(data().create({ label: 'ref', amount: 1, flag: true, due: null, product_id: otherStoreProductId })).rejects.toThrow(
			/names no product of this Store/,
		)
		await data().delete(mine.id)
	})

	it('checks no ownership: any row of the Store is reachable by id, for the repository above to decide [R31]', async () => {
		// Rows carry no owner the service knows of: that is the session-scoped layer's job.
		const row = await data().create({ label: 'anyone', amount: 2, flag: true, due: null, product_id: null })
		expect((await moduleData(unverifiedScope(t.db, t.storeId), probe).get(row.id))?.label).toBe('anyone')
		await data().delete(row.id)
	})

	it('answers a unique index’s second row with a conflict, and stores text as text', async () => {
		const text = "'; DROP"
		const row = await data().create({ label: text, amount: 1, flag: true, due: null, product_id: null })
		await expect(data().create({ label: text, amount: 2, flag: true, due: null, product_id: null })).rejects.toBeInstanceOf(ModuleConflictError)
		expect((await data().get(row.id))?.label).toBe(text)
		// The same label in another Store is no conflict: uniqueness is per Store.
		const there = await elsewhere().create({ label: text, amount: 1, flag: true, due: null, product_id: null })
		await elsewhere().delete(there.id)
		await data().delete(row.id)
	})

	it('pages with a cursor: every row once, in order, and a forged cursor is refused', async () => {
		const ids: string[] = []
		for (let n = 0; n < 5; n++) ids.push((await data().create({ label: `pg${n}`, amount: n, flag: false, due: null, product_id: null })).id)
		const seen: number[] = []
		let cursor: string | null = null
		do {
			const page = await data().list({ orderBy: { field: 'amount', direction: 'asc' }, limit: 2, cursor, where: { id: { in: ids } } })
			seen.push(...page.rows.map((r) => r.amount))
			cursor = page.next
		} while (cursor)
		expect(seen).toEqual([0, 1, 2, 3, 4])
		await expect(data().list({ cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(ModuleInputError)
		await expect(data().list({ orderBy: { field: 'store_id' as never } })).rejects.toBeInstanceOf(ModuleInputError)
		await expect(data().list({ orderBy: { field: 'due' } })).rejects.toThrow(/order by a required field/)
		for (const id of ids) await data().delete(id)
	})

	it('reads only the views its definition names, only their published columns [R32]', async () => {
		const purchases = data().view('purchases')
		expect(await purchases.count({ product_id: productId })).toBe(0)
		await expect(purchases.list({ where: { email: 'a@example.com' } })).rejects.toThrow(/has no field "email"/)
		await expect(purchases.list({ orderBy: { field: 'totalMinor' } })).rejects.toThrow(/has no field "totalMinor"/)
		expect(() => data().view('orders')).toThrow(ModuleInputError)
		// Not a rule of the service alone: the view in the database has no such column to select.
		for (const column of ['email', 'addressLine1', 'totalMinor', '"email"'])
			await expect(t.db.$queryRawUnsafe(`SELECT ${column.startsWith('"') ? column : `"${column}"`} FROM "view_purchases"`)).rejects.toThrow()
	})
})
