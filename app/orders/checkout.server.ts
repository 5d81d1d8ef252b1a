import { randomUUID } from 'node:crypto'
import { cartOwner, forgetCartCount } from '../cart/cart.server'
import { forgetCatalog } from '../catalog/catalog.server'
import type { Db } from '../data/db.server'
import type { Viewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import { hashOrderToken, orderToken } from './token.server'

export type CheckoutDetails = {
	email: string
	name: string
	addressLine1: string
	addressLine2: string
	city: string
	postalCode: string
	country: string
}

export type PlacedOrder = {
	id: string
	number: number
	token: string
	storeId: string
	email: string
	currency: string
	totalMinor: number
	status: string
	providerRef: string | null
	connection: { id: string; provider: string }
	lines: Array<{ title: string; unitPriceMinor: number; quantity: number }>
}

const placedFields = {
	id: true,
	number: true,
	storeId: true,
	email: true,
	currency: true,
	totalMinor: true,
	status: true,
	providerRef: true,
	userId: true,
	guestId: true,
	connection: { select: { id: true, provider: true } },
	lines: { select: { title: true, unitPriceMinor: true, quantity: true } },
} as const

const FIRST_ORDER_NUMBER = 1001

function isUniqueViolation(error: unknown, field: string) {
	const e = error as { code?: string; meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } }; message?: string }
	if (e?.code !== 'P2002') return false
	const text = JSON.stringify(e.meta ?? {}) + (e.message ?? '')
	return text.includes(field)
}

/**
 * Spec: Checkout requests. Places the viewer's cart as an Order in ONE transaction: a
 * snapshot of lines, current prices and totals; stock decremented only where enough is
 * left (so the last unit cannot be sold twice); the cart emptied. The form's idempotency
 * key makes a replayed or double-clicked submit return the first Order instead of a second.
 */
export async function placeOrder({
	db,
	viewer,
	details,
	connectionHandle,
	idempotencyKey,
}: {
	db: Db
	viewer: Viewer
	details: CheckoutDetails
	connectionHandle: string
	idempotencyKey: string
}): Promise<{ order: PlacedOrder; replayed: boolean }> {
	const owner = cartOwner(viewer)
	const storeId = viewer.storeId

	const replay = async () => {
		const existing = await db.order.findUnique({
			where: { storeId_idempotencyKey: { storeId, idempotencyKey } },
			select: placedFields,
		})
		if (!existing) return null
		const mine = 'userId' in owner ? existing.userId === owner.userId : existing.guestId === owner.guestId && !existing.userId
		if (!mine) throw new DomainError(409, 'This checkout was already submitted from another session. Reload the checkout page.')
		return { order: withToken(existing), replayed: true }
	}

	// No lookup before the attempt: a replay finds its cart empty (or hits the unique key)
	// and is answered from the first Order in the catch below. The common path saves a query.
	const connection = await db.connection.findFirst({
		where: { storeId, handle: connectionHandle, active: true, provider: { in: ['offline', 'stripe', 'generic'] } },
		select: { id: true, provider: true },
	})
	if (!connection) throw new DomainError(400, 'Choose one of the payment methods offered.', 'payment')

	for (let attempt = 0; attempt < 5; attempt++) {
		try {
			const order = await db.$transaction(async (tx) => {
				const cart = await tx.cart.findFirst({
					where: { storeId, ...owner },
					select: {
						id: true,
						lines: {
							orderBy: { createdAt: 'asc' },
							select: { quantity: true, product: { select: { id: true, title: true, priceMinor: true, status: true, stock: true } } },
						},
					},
				})
				if (!cart || cart.lines.length === 0) throw new DomainError(409, 'Your cart is empty.')
				const store = await tx.store.findUniqueOrThrow({ where: { id: storeId }, select: { currency: true } })

				for (const line of cart.lines) {
					if (line.product.status !== 'active') {
						throw new DomainError(409, `${line.product.title} is no longer available. Remove it from your cart.`)
					}
					const taken = await tx.product.updateMany({
						where: { id: line.product.id, storeId, status: 'active', stock: { gte: line.quantity } },
						data: { stock: { decrement: line.quantity } },
					})
					if (taken.count !== 1) {
						throw new DomainError(409, `Not enough of ${line.product.title} is left in stock. Update your cart.`)
					}
				}

				const lines = cart.lines.map((line) => ({
					productId: line.product.id,
					title: line.product.title,
					unitPriceMinor: line.product.priceMinor,
					quantity: line.quantity,
					lineTotalMinor: line.product.priceMinor * line.quantity,
				}))
				const subtotalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0)
				const latest = await tx.order.aggregate({ where: { storeId }, _max: { number: true } })
				const number = Math.max(FIRST_ORDER_NUMBER - 1, latest._max.number ?? 0) + 1
				const id = randomUUID()
				await tx.order.create({
					data: {
						id,
						storeId,
						number,
						tokenHash: hashOrderToken(orderToken(id)),
						userId: 'userId' in owner ? owner.userId : null,
						guestId: viewer.guestId ?? null,
						...details,
						currency: store.currency,
						subtotalMinor,
						totalMinor: subtotalMinor,
						connectionId: connection.id,
						idempotencyKey,
						lines: { create: lines },
					},
					select: { id: true },
				})
				await tx.cartLine.deleteMany({ where: { cartId: cart.id } })
				return { id, number, storeId, email: details.email, currency: store.currency, totalMinor: subtotalMinor, status: 'awaiting_payment', providerRef: null, connection, lines }
			})
			// Stock moved and the cart is empty: what pages show of both is read again.
			forgetCatalog()
			forgetCartCount(viewer)
			return { order: withToken(order), replayed: false }
		} catch (error) {
			// A double submit that lost the race finds the winner's Order (its cart is empty by now).
			if (isUniqueViolation(error, 'idempotencyKey') || error instanceof DomainError) {
				const raced = await replay()
				if (raced) return raced
			}
			// Two checkouts took the same order number at once: take the next one.
			if (isUniqueViolation(error, 'number')) continue
			throw error
		}
	}
	throw new Error('Could not allocate an order number')
}

function withToken<T extends { id: string }>(order: T & Omit<PlacedOrder, 'token'>): PlacedOrder {
	const { id, number, storeId, email, currency, totalMinor, status, providerRef, connection, lines } = order
	return { id, number, storeId, email, currency, totalMinor, status, providerRef, connection, lines, token: orderToken(id) }
}
