import { randomUUID } from 'node:crypto'
import type { Db } from '../../app/data/db.server'
import type { Prisma } from '../../app/data/generated/sqlite/client'
import type { GuestViewer, UserViewer } from '../../app/data/viewer'
import { ensureOfflineConnection } from '../../app/payments/connections.server'
import { unverifiedScope } from '../../app/data/scope'
import { variantRow, type VariantInput } from '../../app/rules/variants'
import { cartRepository } from '../../app/cart/cart.server'
import { placeOrder } from '../../app/orders/checkout.server'
import { recordProviderRef } from '../../app/orders/orders.server'

/** An active Product of `storeId` with a unique slug, sold as one variant (`variantId`). */
export async function createProduct(db: Db, storeId: string, data: Partial<{ title: string; priceMinor: number; stock: number; status: string }> = {}) {
	const slug = `p-${randomUUID().slice(0, 12)}`
	const priceMinor = data.priceMinor ?? 1500
	const product = await db.product.create({
		data: {
			storeId,
			slug,
			title: data.title ?? `Product ${slug}`,
			priceMinor,
			status: data.status ?? 'active',
			variants: { create: { storeId, priceMinor, stock: data.stock ?? 10 } },
		},
		select: { id: true, slug: true, title: true, priceMinor: true, variants: { select: { id: true } } },
	})
	const { variants, ...rest } = product
	return { ...rest, variantId: variants[0]!.id }
}

/** A Product with options and one variant per combination given, in order [R121]. */
export async function createProductWithVariants(
	db: Db,
	storeId: string,
	{
		optionNames,
		variants,
		status = 'active',
	}: { optionNames: string[]; variants: Array<{ values: string[]; priceMinor: number; stock: number; sku?: string }>; status?: string },
) {
	const slug = `p-${randomUUID().slice(0, 12)}`
	const product = await db.product.create({
		data: {
			storeId,
			slug,
			title: `Product ${slug}`,
			status,
			optionNames: JSON.stringify(optionNames),
			priceMinor: Math.min(...variants.map((variant) => variant.priceMinor)),
			variants: {
				create: variants.map(({ values, sku = null, ...variant }, position) => ({
					...variantRow({ ...variant, optionValues: values, sku }, position),
					storeId,
				})),
			},
		},
		select: { id: true, slug: true, title: true, variants: { orderBy: { position: 'asc' }, select: { id: true, title: true } } },
	})
	return product
}

/** The stock of a variant now. */
export async function stockOf(db: Db, variantId: string) {
	return (await db.productVariant.findUniqueOrThrow({ where: { id: variantId }, select: { stock: true } })).stock
}

export const newGuest = (storeId: string): GuestViewer => ({ kind: 'guest', storeId, guestId: randomUUID() })

export const asCustomer = (storeId: string, userId: string, email: string, guestId?: string): UserViewer => ({
	kind: 'user',
	role: 'user',
	storeId,
	userId,
	email,
	name: 'Shopper',
	guestId,
})

export const DETAILS = {
	email: 'buyer@example.com',
	name: 'Ada Buyer',
	addressLine1: '1 Market Street',
	addressLine2: '',
	city: 'Springfield',
	postalCode: '12345',
	country: 'US',
}

export async function offline(db: Db, storeId: string) {
	return ensureOfflineConnection(unverifiedScope(db, storeId))
}

/** What Store Admin's form gives for a product sold as one variant (no options). */
export function singleVariantInput<T extends { priceMinor: number; stock: number; imageKey?: string | null }>({
	priceMinor,
	stock,
	...product
}: T): Omit<T, 'priceMinor' | 'stock'> & { optionNames: string[]; variants: VariantInput[] } {
	return { ...product, optionNames: [], variants: [{ optionValues: [], sku: null, priceMinor, stock, imageKey: null }] }
}

/**
 * A guest's Order of one product at `priceMinor` (USD) through the card Connection `handle`,
 * with the Checkout Session the store recorded for it when it started the payment, and the
 * PaymentIntent Stripe will create for that Session.
 */
export async function startedCardOrder(db: Db, storeId: string, handle: string, priceMinor = 5000) {
	const product = await createProduct(db, storeId, { priceMinor })
	const guest = newGuest(storeId)
	await cartRepository(db, guest).add({ productId: product.id, quantity: 1 })
	const { order } = await placeOrder({ db, viewer: guest, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })
	const sessionId = `cs_test_${randomUUID().replaceAll('-', '')}`
	await recordProviderRef(unverifiedScope(db, storeId), { orderId: order.id, providerRef: sessionId })
	return { order, sessionId, paymentIntentId: `pi_${randomUUID().replaceAll('-', '')}` }
}

/**
 * An Order's columns to write straight to the database, no cart or checkout, for tests of what
 * reads Orders: a one-line address in GB, USD, `totalMinor` (1000 unless given) as its subtotal
 * too, a token and an idempotency key of its own; any other column as given.
 */
export function orderRow({
	totalMinor = 1000,
	...columns
}: Pick<Prisma.OrderCreateManyInput, 'storeId' | 'connectionId' | 'number' | 'email'> & Partial<Prisma.OrderCreateManyInput>): Prisma.OrderCreateManyInput {
	return {
		tokenHash: randomUUID(),
		idempotencyKey: randomUUID(),
		name: 'Buyer',
		addressLine1: '1',
		city: 'C',
		postalCode: '1',
		country: 'GB',
		currency: 'USD',
		subtotalMinor: totalMinor,
		totalMinor,
		...columns,
	}
}
