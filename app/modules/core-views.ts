import type { CoreView } from './compiler'

/**
 * What the core publishes for Modules to read [R32]: column-projected views over its own
 * tables. A column not listed here (an Order's email, address or totals) is not in the view, so
 * no query a Module can make selects it.
 */
export const CORE_VIEWS: readonly CoreView[] = [
	{
		// One row per Order line: who bought which product, and where the Order stands.
		name: 'purchases',
		columns: { order_id: 'string', product_id: 'string', customer_id: 'string', status: 'string', placed_at: 'timestamp' },
		select:
			'SELECT l."id" AS "id", o."storeId" AS "store_id", o."id" AS "order_id", l."productId" AS "product_id", o."userId" AS "customer_id", o."status" AS "status", o."createdAt" AS "placed_at" FROM "orders" o JOIN "order_lines" l ON l."orderId" = o."id"',
	},
	{
		// What a shopper may see of a Product anyway: its name, address and whether it is on sale.
		name: 'catalog',
		columns: { slug: 'string', title: 'string', status: 'string' },
		select: 'SELECT p."id" AS "id", p."storeId" AS "store_id", p."slug" AS "slug", p."title" AS "title", p."status" AS "status" FROM "products" p',
	},
]
