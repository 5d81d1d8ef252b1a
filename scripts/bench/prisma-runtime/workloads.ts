/**
 * The store's hot query shapes, written once and run by every runtime under test (worker.ts).
 * Copied from the real code so the figures speak for it:
 * - catalog:  app/catalog/catalog.server.ts readPage (the Products of page 1, newest first, with
 *             their variants); the page's count() is left out so one op is one findMany.
 * - checkout: app/orders/checkout.server.ts placeOrder (+ shippingAndTax, enqueueMail): the
 *             Connection lookup, then ONE interactive transaction with `SET LOCAL lock_timeout`
 *             (PostgreSQL), the cart's lines with product and variant, zone count + tax rate, the
 *             chosen shipping rate, a conditional stock `updateMany` per line (variant-id order),
 *             `cartLine.deleteMany`, the Store's order counter, `order.createMany`,
 *             `orderLine.createMany` and the outbox `upsert`. One change: the cart is not emptied
 *             (deleteMany matches no line) so every op finds the same cart.
 * - session:  a session-token lookup, `session.findUnique({ where: { token } })`, as better-auth's
 *             Prisma adapter reads a session on every signed-in request.
 */
import { randomUUID, createHash } from 'node:crypto'
import type { PrismaClient } from '../../../app/data/generated/sqlite/client'

/** Both generated clients (and both versions) share the model API; the SQLite type describes them. */
export type Db = PrismaClient
export type Engine = 'sqlite' | 'postgresql'
export const WORKLOADS = ['catalog', 'checkout', 'session'] as const
export type Workload = (typeof WORKLOADS)[number]

/** What seed.ts made and every op reads: the same for every runtime. */
export type Fixture = {
	storeId: string
	connectionHandle: string
	shippingRateId: string
	country: string
	/** One guest cart per concurrent checkout worker, two lines each, no variant shared. */
	guestIds: string[]
	tokens: string[]
}

const shopperFields = {
	id: true,
	slug: true,
	title: true,
	description: true,
	priceMinor: true,
	imageKey: true,
	variants: { select: { priceMinor: true, stock: true } },
} as const

const details = {
	email: 'bench@example.test',
	name: 'Bench Buyer',
	addressLine1: '1 Bench Street',
	addressLine2: '',
	city: 'Loadtown',
	postalCode: '12345',
}

export function makeOps(db: Db, fx: Fixture, engine: Engine) {
	let nextToken = 0
	const storeId = fx.storeId

	async function catalog() {
		const products = await db.product.findMany({
			where: { storeId, status: 'active' },
			orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
			skip: 0,
			take: 12,
			select: shopperFields,
		})
		if (products.length !== 12 || products.some((product) => product.variants.length === 0)) throw new Error('catalog: wrong page')
	}

	async function session() {
		const token = fx.tokens[nextToken++ % fx.tokens.length] as string
		const found = await db.session.findUnique({ where: { token } })
		if (!found) throw new Error('session: not found')
	}

	async function checkout(worker: number) {
		const guestId = fx.guestIds[worker % fx.guestIds.length] as string
		const connection = await db.connection.findFirst({
			where: { storeId, handle: fx.connectionHandle, active: true, provider: { in: ['offline', 'stripe', 'generic'] } },
			select: { id: true, provider: true },
		})
		if (!connection) throw new Error('checkout: no connection')
		const idempotencyKey = randomUUID()
		await db.$transaction(
			async (tx) => {
				if (engine === 'postgresql') await tx.$executeRawUnsafe('SET LOCAL lock_timeout = 2000')
				const cartLines = await tx.cartLine.findMany({
					where: { cart: { storeId, guestId } },
					orderBy: { createdAt: 'asc' },
					select: {
						cartId: true,
						quantity: true,
						product: { select: { id: true, title: true, status: true } },
						variant: { select: { id: true, title: true, sku: true, priceMinor: true } },
					},
				})
				const cartId = cartLines[0]?.cartId
				if (!cartId) throw new Error('checkout: empty cart')
				const lines = cartLines.map((line) => ({
					productId: line.product.id,
					variantId: line.variant.id,
					title: line.product.title,
					variantTitle: line.variant.title,
					sku: line.variant.sku,
					unitPriceMinor: line.variant.priceMinor,
					quantity: line.quantity,
					lineTotalMinor: line.variant.priceMinor * line.quantity,
				}))
				const subtotalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0)
				const [zones, tax] = await Promise.all([
					tx.shippingZone.count({ where: { storeId } }),
					tx.taxRate.findUnique({ where: { storeId_country: { storeId, country: fx.country } }, select: { rateBasisPoints: true } }),
				])
				const rate =
					zones > 0
						? await tx.shippingRate.findFirst({
								where: { id: fx.shippingRateId, storeId },
								select: { name: true, priceMinor: true, freeOverMinor: true, zone: { select: { countries: true } } },
							})
						: null
				if (zones > 0 && !rate?.zone.countries.split(',').includes(fx.country)) throw new Error('checkout: no rate')
				for (const line of [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) {
					const taken = await tx.productVariant.updateMany({
						where: { id: line.variantId, storeId, stock: { gte: line.quantity }, product: { status: 'active' } },
						data: { stock: { decrement: line.quantity } },
					})
					if (taken.count !== 1) throw new Error('checkout: out of stock')
				}
				// The real checkout empties the cart here; this one matches no line so the cart stays.
				await tx.cartLine.deleteMany({ where: { cartId, quantity: { lt: 0 } } })
				const store = await tx.store.update({
					where: { id: storeId },
					data: { lastOrderNumber: { increment: 1 } },
					select: { currency: true, lastOrderNumber: true, pricesIncludeTax: true },
				})
				const id = randomUUID()
				const shippingMinor = rate && (rate.freeOverMinor === null || subtotalMinor < rate.freeOverMinor) ? rate.priceMinor : 0
				const taxRateBasisPoints = tax?.rateBasisPoints ?? 0
				const taxMinor = Math.round(((subtotalMinor + shippingMinor) * taxRateBasisPoints) / 10_000)
				await tx.order.createMany({
					data: {
						id,
						storeId,
						number: store.lastOrderNumber,
						tokenHash: createHash('sha256').update(id).digest('hex'),
						userId: null,
						guestId,
						...details,
						country: fx.country,
						currency: store.currency,
						subtotalMinor,
						shippingMinor,
						shippingName: rate?.name ?? null,
						taxMinor,
						taxRateBasisPoints,
						taxIncluded: false,
						totalMinor: subtotalMinor + shippingMinor + taxMinor,
						connectionId: connection.id,
						idempotencyKey,
					},
				})
				await tx.orderLine.createMany({ data: lines.map((line) => ({ ...line, orderId: id })) })
				await tx.outboxMail.upsert({
					where: { storeId_dedupeKey: { storeId, dedupeKey: `order:${id}:placed` } },
					create: { storeId, kind: 'order-placed', subjectId: id, toAddress: details.email, dedupeKey: `order:${id}:placed` },
					update: {},
					select: { id: true },
				})
			},
			{ maxWait: 5_000, timeout: 10_000 },
		)
	}

	return { catalog, checkout, session } satisfies Record<Workload, (worker: number) => Promise<void>>
}
