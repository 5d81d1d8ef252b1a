import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { auditEntry, auditRepository } from './audit.server'

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
		for (const [targetType, targetId] of [
			['order', mine.id],
			['order', theirs.id],
			['product', product.id],
			['upload', 'u1'],
		] as const)
			await auditEntry(t.db, admin, { action: `${targetType}.x`, targetType, targetId })

		const { entries } = await auditRepository(t.db, admin).page()
		const target = (id: string) => entries.find((entry) => entry.targetId === id)?.target
		expect(target(mine.id)).toEqual({ label: '#1001', href: '/admin/orders/1001' })
		expect(target(product.id)).toEqual({ label: 'Brass lamp', href: `/admin/products/${product.id}` })
		expect(target(theirs.id)).toBeNull()
		expect(target('u1')).toBeNull()
	})
})
