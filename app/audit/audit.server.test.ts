import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import { auditedChange, auditEntry, auditRepository } from './audit.server'

describe.each(PROVIDERS)('the activity log on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.close())

	it("names an Order by its number and a product by its title, linked, and never another Store's [R30]", async () => {
		const connection = await t.db.connection.create({
			data: { storeId: t.storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' },
			select: { id: true },
		})
		const other = await anotherStore(t.db)
		const otherConnection = await t.db.connection.create({
			data: { storeId: other.id, handle: 'offline', provider: 'offline', displayName: 'B' },
			select: { id: true },
		})
		const orderOf = (storeId: string, connectionId: string, number: number) =>
			t.db.order.create({
				data: {
					storeId,
					number,
					tokenHash: randomUUID(),
					email: 'b@example.com',
					name: 'B',
					addressLine1: '1',
					city: 'C',
					postalCode: '1',
					country: 'US',
					currency: 'USD',
					subtotalMinor: 100,
					totalMinor: 100,
					connectionId,
					idempotencyKey: randomUUID(),
				},
				select: { id: true },
			})
		const mine = await orderOf(t.storeId, connection.id, 1001)
		const theirs = await orderOf(other.id, otherConnection.id, 1777)
		const product = await t.db.product.create({ data: { storeId: t.storeId, slug: 'lamp', title: 'Brass lamp', priceMinor: 100 }, select: { id: true } })
		for (const [action, targetType, targetId] of [
			['order.note', 'order', mine.id],
			['order.note', 'order', theirs.id],
			['product.update', 'product', product.id],
			['upload.delete', 'upload', 'u1'],
		] as const)
			await auditEntry(t.db, admin, { action, targetType, targetId })

		const { entries } = await auditRepository(t.db, admin).page()
		const target = (id: string) => entries.find((entry) => entry.targetId === id)?.target
		expect(target(mine.id)).toEqual({ label: '#1001', href: '/admin/orders/1001' })
		expect(target(product.id)).toEqual({ label: 'Brass lamp', href: `/admin/products/${product.id}` })
		expect(target(theirs.id)).toBeNull()
		expect(target('u1')).toBeNull()
	})

	describe('an audited change', () => {
		const entriesFor = (targetId: string) => t.db.auditEntry.count({ where: { storeId: admin.storeId, targetId } })
		const collection = (slug: string) => t.db.collection.findFirst({ where: { storeId: admin.storeId, slug }, select: { id: true } })
		const write = (slug: string) => (tx: typeof t.db) =>
			tx.collection.create({ data: { storeId: admin.storeId, slug, title: slug, position: 0 }, select: { id: true } })

		it('writes the change and its entry in one transaction, then forgets the cache', async () => {
			let forgotten = 0
			const slug = `c-${randomUUID()}`
			const made = await auditedChange(t.db, admin, {
				write: write(slug),
				entry: (row) => ({ action: 'collection.create', targetType: 'collection', targetId: row.id }),
				forget: () => forgotten++,
			})
			expect(await collection(slug)).toEqual(made)
			expect(await entriesFor(made.id)).toBe(1)
			expect(forgotten).toBe(1)
		})

		it('keeps neither the change nor an entry when the entry cannot be written, and still forgets', async () => {
			let forgotten = 0
			const slug = `c-${randomUUID()}`
			const failing = auditedChange(t.db, admin, {
				write: write(slug),
				entry: () => {
					throw new Error('no entry')
				},
				forget: () => forgotten++,
			})
			await expect(failing).rejects.toThrow('no entry')
			expect(await collection(slug)).toBeNull()
			expect(forgotten).toBe(1)
		})

		it('turns a unique-key clash into the form’s own error, and passes any other error on', async () => {
			const slug = `c-${randomUUID()}`
			const entry = (row: { id: string }) => ({ action: 'collection.create' as const, targetType: 'collection', targetId: row.id })
			const duplicate = () => new DomainError(409, 'Another collection already uses this slug.', 'slug')
			await auditedChange(t.db, admin, { write: write(slug), entry, duplicate })
			await expect(auditedChange(t.db, admin, { write: write(slug), entry, duplicate })).rejects.toMatchObject({ status: 409, field: 'slug' })
			const other = auditedChange(t.db, admin, {
				write: () => Promise.reject(new Error('disk full')),
				entry,
				duplicate,
			})
			await expect(other).rejects.toThrow('disk full')
			// The clash left the first collection and its one entry as they were.
			expect(await entriesFor((await collection(slug))!.id)).toBe(1)
		})
	})
})
