/**
 * Writes a store of a given size (scripts/lib/scale-rows.ts) into a migrated database, SQLite or
 * PostgreSQL: many rows a statement (createMany, or one multi-row INSERT for the Modules'
 * tables), never one round trip a row.
 */
import { type Db, engineOf, sql, sqlJoin } from '../../app/data/db.server'
import { type ScaleOrder, type ScaleSize, customersOf, ordersOf, productsOf, randomFrom } from './scale-rows'

/** Rows a statement: far below either engine's limit of bound values (32,766 and 65,535). */
const BATCH = 500

export type ScaleTarget = {
	db: Db
	storeId: string
	/** The Connection every Order was paid through. */
	connectionId: string
	/** Store Admin, who wrote the Orders' activity (paid, shipped, refunded, cancelled). */
	admin: { id: string; email: string }
	/** Uploads of the Store the galleries show (at least three). */
	imageKeys: readonly string[]
	now?: number
	/** Told how far it got, a line at a time. */
	progress?: (line: string) => void
}

async function inBatches<T>(rows: Iterable<T>, write: (batch: T[]) => Promise<unknown>) {
	let batch: T[] = []
	for (const row of rows) {
		batch.push(row)
		if (batch.length === BATCH) {
			await write(batch)
			batch = []
		}
	}
	if (batch.length > 0) await write(batch)
}

/**
 * One transaction for the whole store: a commit (and its sync to disk) per statement was most of
 * the time on SQLite. No other writer is expected on the fresh database it fills.
 */
export async function seedScale(target: ScaleTarget, size: ScaleSize) {
	const sqlite = engineOf(target.db) === 'sqlite'
	return target.db.$transaction((tx) => fill({ ...target, db: tx as unknown as Db }, size, sqlite), { timeout: 60 * 60 * 1000, maxWait: 60 * 1000 })
}

async function fill(target: ScaleTarget, size: ScaleSize, sqlite: boolean) {
	const { db, storeId, connectionId, admin, imageKeys } = target
	const now = target.now ?? Date.now()
	const say = target.progress ?? (() => {})
	/** The Modules' tables keep times as ISO text on SQLite and timestamptz on PostgreSQL. */
	const time = (date: Date) => (sqlite ? date.toISOString() : date)
	const random = randomFrom(size.seed * 31 + 4)

	const products = productsOf(size, now)
	await inBatches(products, (batch) =>
		db.product.createMany({
			data: batch.map(({ variants: _variants, images: _images, ...product }) => ({ ...product, storeId, imageKey: null, updatedAt: product.createdAt })),
		}),
	)
	await inBatches(
		products.flatMap((product) => product.variants.map((variant) => ({ ...variant, storeId, productId: product.id, createdAt: product.createdAt }))),
		(batch) => db.productVariant.createMany({ data: batch }),
	)
	const images = products.flatMap((product, i) =>
		Array.from({ length: product.images }, (_, position) => ({
			storeId,
			productId: product.id,
			key: imageKeys[(i + position) % imageKeys.length]!,
			position,
			width: 800,
			height: 800,
		})),
	)
	await inBatches(images, (batch) => db.productImage.createMany({ data: batch }))
	// The main image is the gallery's first: one UPDATE per image key rather than one per product.
	for (const [index, key] of imageKeys.entries()) {
		const ids = products.filter((product, i) => product.images > 0 && i % imageKeys.length === index).map((product) => product.id)
		for (let start = 0; start < ids.length; start += BATCH) {
			await db.product.updateMany({ where: { storeId, id: { in: ids.slice(start, start + BATCH) } }, data: { imageKey: key } })
		}
	}
	say(`products: ${products.length} (${products.reduce((n, p) => n + p.variants.length, 0)} variants, ${images.length} images)`)

	const collectionCount = Math.max(3, Math.min(40, Math.ceil(size.products / 250)))
	const collections = Array.from({ length: collectionCount }, (_, c) => ({
		id: `scale-c-${size.seed}-${c}`,
		storeId,
		slug: `collection-${c + 1}`,
		title: `Collection ${c + 1}`,
		description: 'A selection of the shop’s products.',
		position: c,
	}))
	await db.collection.createMany({ data: collections })
	const positions = new Array<number>(collectionCount).fill(0)
	const memberships = products.flatMap((product, i) => {
		const homes = new Set([i % collectionCount, ...(i % 4 === 0 ? [(i * 7 + 1) % collectionCount] : [])])
		return [...homes].map((c) => ({ collectionId: collections[c]!.id, productId: product.id, position: positions[c]!++ }))
	})
	await inBatches(memberships, (batch) => db.collectionProduct.createMany({ data: batch }))
	say(`collections: ${collectionCount} (${memberships.length} placements)`)

	const customers = customersOf(size, now)
	await inBatches(customers, (batch) =>
		db.user.createMany({ data: batch.map((customer) => ({ ...customer, storeId, role: 'user', emailVerified: true, updatedAt: customer.createdAt })) }),
	)
	say(`customers: ${customers.length}`)

	let orderCount = 0
	let lineCount = 0
	let auditCount = 0
	const reviewed = new Set<string>()
	const reviews: Array<{ id: string; productId: string; customerId: string; author: string; rating: number; status: string; at: Date }> = []
	await inBatches(ordersOf(size, now, products, customers), async (batch) => {
		await db.order.createMany({ data: batch.map(({ lines: _lines, ...order }) => ({ ...order, storeId, connectionId })) })
		const lines = batch.flatMap((order) => order.lines.map((line) => ({ ...line, orderId: order.id })))
		await db.orderLine.createMany({ data: lines })
		const audit = batch.flatMap((order) => activityOf(order, admin, storeId))
		if (audit.length > 0) await db.auditEntry.createMany({ data: audit })
		for (const order of batch) {
			const line = order.lines[0]!
			const key = `${line.productId}:${order.userId}`
			if (order.userId && order.shippedAt && !reviewed.has(key) && random.chance(0.12)) {
				reviewed.add(key)
				reviews.push({
					id: `scale-r-${size.seed}-${reviews.length}`,
					productId: line.productId,
					customerId: order.userId,
					author: order.name.split(' ')[0] ?? 'A customer',
					rating: random.int(1, 5) < 2 ? random.int(1, 3) : random.int(4, 5),
					status: random.chance(0.85) ? 'approved' : random.chance(0.7) ? 'pending' : 'rejected',
					at: new Date(order.shippedAt.getTime() + random.int(1, 20) * 24 * 60 * 60 * 1000),
				})
			}
		}
		orderCount += batch.length
		lineCount += lines.length
		auditCount += audit.length
		if (orderCount % 20000 === 0) say(`orders: ${orderCount}…`)
	})
	await db.store.update({ where: { id: storeId }, data: { lastOrderNumber: 1000 + size.orders }, select: { id: true } })
	say(`orders: ${orderCount} (${lineCount} lines, ${auditCount} activity entries)`)

	await inBatches(reviews, (batch) =>
		db.$executeRaw(
			sql`INSERT INTO "mod_reviews" ("id", "store_id", "product_id", "customer_id", "author_name", "rating", "title", "body", "status", "moderated_at", "created_at", "updated_at") VALUES ${sqlJoin(
				batch.map(
					(r) =>
						sql`(${r.id}, ${storeId}, ${r.productId}, ${r.customerId}, ${r.author}, ${r.rating}, ${r.rating >= 4 ? 'Lovely' : 'Not for me'}, ${'It arrived quickly and is as described.'}, ${r.status}, ${r.status === 'pending' ? null : time(r.at)}, ${time(r.at)}, ${time(r.at)})`,
				),
			)}`,
		),
	)
	say(`reviews: ${reviews.length}`)

	const subscribers = customers
		.filter((_, i) => i % 3 === 0)
		.map((customer, i) => {
			const confirmed = random.chance(0.8) ? customer.createdAt : null
			return {
				id: `scale-n-${size.seed}-${i}`,
				email: customer.email,
				confirmed,
				unsubscribed: confirmed && random.chance(0.1) ? new Date(now - random.int(1, 200) * 24 * 60 * 60 * 1000) : null,
				at: customer.createdAt,
			}
		})
	await inBatches(subscribers, (batch) =>
		db.$executeRaw(
			sql`INSERT INTO "mod_newsletter" ("id", "store_id", "email", "confirmed_at", "unsubscribed_at", "created_at", "updated_at") VALUES ${sqlJoin(
				batch.map(
					(s) =>
						sql`(${s.id}, ${storeId}, ${s.email}, ${s.confirmed ? time(s.confirmed) : null}, ${s.unsubscribed ? time(s.unsubscribed) : null}, ${time(s.at)}, ${time(s.at)})`,
				),
			)}`,
		),
	)
	say(`subscribers: ${subscribers.length}`)
	return { products: products.length, orders: orderCount, customers: customers.length, reviews: reviews.length, subscribers: subscribers.length }
}

/** What Store Admin's activity log holds of an Order: its payment, shipment, refund or cancellation. */
function activityOf(order: ScaleOrder, admin: { id: string; email: string }, storeId: string) {
	const entry = (action: string, at: Date, detail: Record<string, unknown>) => ({
		storeId,
		actorId: admin.id,
		actorEmail: admin.email,
		action,
		targetType: 'order',
		targetId: order.id,
		detail: JSON.stringify({ number: order.number, ...detail }),
		createdAt: at,
	})
	const entries = []
	if (order.paidAt) entries.push(entry('order.mark_paid', order.paidAt, {}))
	if (order.shippedAt) entries.push(entry('order.fulfil', order.shippedAt, { carrier: order.carrier, trackingNumber: order.trackingNumber }))
	if (order.refundedMinor > 0) entries.push(entry('order.refund', order.updatedAt, { amountMinor: order.refundedMinor }))
	if (order.status === 'cancelled') entries.push(entry('order.cancel', new Date(order.createdAt.getTime() + 3 * 24 * 60 * 60 * 1000), {}))
	return entries
}
