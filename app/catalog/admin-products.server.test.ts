import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../rules/limits'
import type { AdminViewer } from '../data/viewer'
import { adminProductsRepository } from './admin-products.server'
import { singleVariantInput } from '../../tests/helpers/commerce'

describe.each(PROVIDERS)('product limits in the admin repository on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.db.$disconnect())

	const input = (changes: Partial<{ priceMinor: number; stock: number }> = {}) =>
		singleVariantInput({
			title: 'Mug',
			slug: `limit-${randomUUID().slice(0, 8)}`,
			description: '',
			priceMinor: 1200,
			stock: 4,
			status: 'active' as const,
			imageKey: null,
			...changes,
		})

	it('refuses a price or stock past the limits with a 400 on that field, for any caller, and writes nothing [R67]', async () => {
		const products = adminProductsRepository(t.db, admin)
		const refused: Array<[Partial<{ priceMinor: number; stock: number }>, string]> = [
			[{ priceMinor: 999_999_999 }, 'variant.0.price'],
			[{ priceMinor: MAX_UNIT_PRICE_MINOR + 1 }, 'variant.0.price'],
			[{ priceMinor: -1 }, 'variant.0.price'],
			[{ priceMinor: 12.5 }, 'variant.0.price'],
			[{ priceMinor: Number.NaN }, 'variant.0.price'],
			[{ stock: MAX_STOCK + 1 }, 'variant.0.stock'],
			[{ stock: -1 }, 'variant.0.stock'],
		]
		for (const [changes, field] of refused) {
			const attempt = input(changes)
			await expect(products.create(attempt), JSON.stringify(changes)).rejects.toMatchObject({
				status: 400,
				field,
				message: LIMIT_ERRORS[field.endsWith('price') ? 'price' : 'stock'],
			})
			expect(await t.db.product.count({ where: { storeId: t.storeId, slug: attempt.slug } })).toBe(0)
		}

		const kept = await products.create(input({ priceMinor: MAX_UNIT_PRICE_MINOR, stock: MAX_STOCK }))
		await expect(products.update(kept.id, input({ priceMinor: 999_999_999 }))).rejects.toMatchObject({ status: 400, field: 'variant.0.price' })
		expect(await t.db.productVariant.findMany({ where: { productId: kept.id }, select: { priceMinor: true, stock: true } })).toEqual([
			{ priceMinor: MAX_UNIT_PRICE_MINOR, stock: MAX_STOCK },
		])
		expect(await t.db.auditEntry.count({ where: { targetId: kept.id } })).toBe(1)
	})
})
