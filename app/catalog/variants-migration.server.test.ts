import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROVIDERS } from '../../tests/helpers/databases'
import { migrateUpTo } from '../../tests/helpers/migrations'
import { createTestDatabase, dropTestDatabase } from '../../tests/helpers/postgres'
import { createDb } from '../data/db.server'
import { migrateDatabase } from '../../server/migrate'
import { cartRepository } from '../cart/cart.server'
import { catalogRepository } from './catalog.server'

const VARIANTS = '20261125001500_product_variants'

describe.each(PROVIDERS)('products from before variants on %s [R121]', (provider) => {
	it('each become one variant with their price and stock; carts and Orders point at it and read as before', async () => {
		const root = mkdtempSync(join(tmpdir(), 'variants-move-'))
		const pg = provider === 'postgresql' ? await createTestDatabase('store_variants') : null
		const url = pg ? pg.url : `file:${join(root, 'store.db')}`
		let db = createDb(url)
		try {
			migrateUpTo(url, provider, join(root, 'prisma'), VARIANTS)
			const storeId = 'store-before-variants'
			const now = 'CURRENT_TIMESTAMP'
			const statements = [
				`INSERT INTO "stores" ("id", "handle", "name", "updatedAt") VALUES ('${storeId}', 'main', 'Shop', ${now})`,
				`INSERT INTO "connections" ("id", "storeId", "handle", "provider", "displayName", "updatedAt") VALUES ('c1', '${storeId}', 'offline', 'offline', 'Bank transfer', ${now})`,
				`INSERT INTO "products" ("id", "storeId", "slug", "title", "priceMinor", "stock", "status", "updatedAt") VALUES ('p1', '${storeId}', 'mug', 'Mug', 1600, 7, 'active', ${now})`,
				`INSERT INTO "products" ("id", "storeId", "slug", "title", "priceMinor", "stock", "status", "updatedAt") VALUES ('p2', '${storeId}', 'tote', 'Tote', 2400, 0, 'active', ${now})`,
				`INSERT INTO "carts" ("id", "storeId", "guestId", "updatedAt") VALUES ('cart1', '${storeId}', 'guest-1', ${now})`,
				`INSERT INTO "cart_lines" ("id", "cartId", "productId", "quantity") VALUES ('l1', 'cart1', 'p1', 2)`,
				`INSERT INTO "orders" ("id", "storeId", "number", "tokenHash", "guestId", "email", "name", "addressLine1", "city", "postalCode", "country", "currency", "subtotalMinor", "totalMinor", "connectionId", "idempotencyKey", "updatedAt") VALUES ('o1', '${storeId}', 1001, 'h1', 'guest-1', 'a@example.com', 'A', '1 St', 'Town', '1', 'US', 'USD', 4800, 4800, 'c1', 'k1', ${now})`,
				`INSERT INTO "order_lines" ("id", "orderId", "productId", "title", "unitPriceMinor", "quantity", "lineTotalMinor") VALUES ('ol1', 'o1', 'p2', 'Tote', 2400, 2, 4800)`,
				`INSERT INTO "order_lines" ("id", "orderId", "productId", "title", "unitPriceMinor", "quantity", "lineTotalMinor") VALUES ('ol2', 'o1', NULL, 'Gone', 0, 1, 0)`,
			]
			for (const statement of statements) await db.$executeRawUnsafe(statement)

			// SQLite: the migration wants the file to itself.
			await db.$disconnect()
			migrateDatabase(url, { quiet: true })
			db = createDb(url)

			expect(
				await db.productVariant.findMany({ orderBy: { productId: 'asc' }, select: { productId: true, title: true, sku: true, priceMinor: true, stock: true } }),
			).toEqual([
				{ productId: 'p1', title: '', sku: null, priceMinor: 1600, stock: 7 },
				{ productId: 'p2', title: '', sku: null, priceMinor: 2400, stock: 0 },
			])
			const guest = { kind: 'guest' as const, storeId, guestId: 'guest-1' }
			const cart = await cartRepository(db, guest).summary()
			expect(cart.lines.map((line) => [line.product.title, line.variant.priceMinor, line.quantity, line.available])).toEqual([['Mug', 1600, 2, true]])
			expect(await db.orderLine.findMany({ orderBy: { id: 'asc' }, select: { variantId: true, variantTitle: true, title: true } })).toEqual([
				{ variantId: 'var_p2', variantTitle: '', title: 'Tote' },
				{ variantId: null, variantTitle: '', title: 'Gone' },
			])
			expect(await catalogRepository(db, guest).bySlug('tote')).toMatchObject({ stock: 0, priceMinor: 2400, variants: [{ id: 'var_p2', title: '' }] })
			// Search still reaches the products (no table rebuild lost its index).
			expect((await catalogRepository(db, guest).search({ terms: ['mug'] })).products.map((product) => product.title)).toEqual(['Mug'])
		} finally {
			await db.$disconnect()
			if (pg) await dropTestDatabase(pg.name)
			rmSync(root, { recursive: true, force: true })
		}
	}, 120_000)
})
