import { orderMail } from './mail.server'
import { randomUUID } from 'node:crypto'
import { cartOwner, forgetCartCount } from '../cart/cart.server'
import { lineName } from '../rules/variants'
import { ORDER_LIMIT_MESSAGE, withinOrderLimit } from '../rules/limits'
import { type Db, sql, sqlJoin } from '../data/db.server'
import { announce } from '../data/signals.server'
import type { Viewer } from '../data/viewer'
import { DomainError, StoreBusyError } from '../errors.server'
import { CHECKOUT_CONTENTION, limitLockWaits, retryOnContention } from './contention.server'
import { existingOrderToken, hashOrderToken, orderToken } from './token.server'
import { isUniqueViolation } from '../data/unique-violation'
import { shippingAndTax } from '../shipping/shipping.server'
import { orderTotals } from '../rules/totals'
import { type ChosenDiscount, chooseDiscount, isRepeatedRedemption, redeemDiscount, refused } from '../discounts/redeem.server'
import type { OrderAddress, OrderCharges, OrderLineCharge } from '../rules/order-shape'
import { NO_PAYMENT_DUE } from '../rules/order-status'

export type CheckoutDetails = OrderAddress

export type PlacedOrder = Pick<OrderAddress, 'email'> &
	OrderCharges & {
		id: string
		number: number
		token: string
		storeId: string
		discountCode: string | null
		discountKind: string | null
		status: string
		providerRef: string | null
		connection: { id: string; provider: string }
		lines: OrderLineCharge[]
	}

const placedFields = {
	id: true,
	number: true,
	storeId: true,
	email: true,
	currency: true,
	totalMinor: true,
	shippingMinor: true,
	shippingName: true,
	taxMinor: true,
	taxIncluded: true,
	discountCode: true,
	discountKind: true,
	discountMinor: true,
	status: true,
	providerRef: true,
	userId: true,
	guestId: true,
	tokenHash: true,
	connection: { select: { id: true, provider: true } },
	lines: { select: { title: true, variantTitle: true, unitPriceMinor: true, quantity: true } },
} as const

type CartLineToPlace = {
	cartId: string
	quantity: number
	product: { id: string; title: string; status: string }
	variant: { id: string; title: string; sku: string | null; priceMinor: number }
}

/**
 * The viewer's cart lines with their products and variants, oldest first, in ONE statement:
 * Prisma reads a relation with a query of its own (three statements here), and every statement
 * inside the checkout transaction lengthens the time SQLite holds its one writer lock. The
 * identifiers are quoted the way both engines accept.
 */
async function cartToPlace(tx: Pick<Db, '$queryRaw'>, storeId: string, owner: ReturnType<typeof cartOwner>): Promise<CartLineToPlace[]> {
	const rows = await tx.$queryRaw<
		Array<{
			cartId: string
			quantity: number | bigint
			productId: string
			productTitle: string
			status: string
			variantId: string
			variantTitle: string
			sku: string | null
			priceMinor: number | bigint
		}>
	>`SELECT l."cartId", l."quantity", p."id" AS "productId", p."title" AS "productTitle", p."status", v."id" AS "variantId", v."title" AS "variantTitle", v."sku", v."priceMinor"
		FROM "cart_lines" l
		JOIN "carts" c ON c."id" = l."cartId"
		JOIN "products" p ON p."id" = l."productId"
		JOIN "product_variants" v ON v."id" = l."variantId"
		WHERE c."storeId" = ${storeId} AND ${'userId' in owner ? sql`c."userId" = ${owner.userId}` : sql`c."guestId" = ${owner.guestId}`}
		ORDER BY l."createdAt" ASC, l."id" ASC`
	return rows.map((row) => ({
		cartId: row.cartId,
		quantity: Number(row.quantity),
		product: { id: row.productId, title: row.productTitle, status: row.status },
		variant: { id: row.variantId, title: row.variantTitle, sku: row.sku, priceMinor: Number(row.priceMinor) },
	}))
}

type LineToInsert = {
	productId: string
	variantId: string
	title: string
	variantTitle: string
	sku: string | null
	unitPriceMinor: number
	quantity: number
	lineTotalMinor: number
}

/**
 * An Order's lines in ONE statement, whatever their number. With the lines nested in the Order's
 * create, Prisma wrote them with a statement of their own and then read the Order back with a
 * third; `createMany` alone is compiled anew on every call, which cost more than a statement.
 * The Order's own create is one INSERT … RETURNING. Identifiers quoted the way both engines accept.
 * Each line keeps its place in the cart (`position`): its id is random and says nothing of order.
 */
function insertLines(tx: Pick<Db, '$executeRaw'>, orderId: string, lines: LineToInsert[]) {
	const rows = lines.map(
		(line, position) =>
			sql`(${randomUUID()}, ${orderId}, ${line.productId}, ${line.variantId}, ${line.title}, ${line.variantTitle}, ${line.sku}, ${line.unitPriceMinor}, ${line.quantity}, ${line.lineTotalMinor}, ${position})`,
	)
	return tx.$executeRaw`INSERT INTO "order_lines" ("id", "orderId", "productId", "variantId", "title", "variantTitle", "sku", "unitPriceMinor", "quantity", "lineTotalMinor", "position")
		VALUES ${sqlJoin(rows)}`
}

const byVariantId = (a: { variant: { id: string } }, b: { variant: { id: string } }) => (a.variant.id < b.variant.id ? -1 : a.variant.id > b.variant.id ? 1 : 0)

/**
 * Checkout requests [R67]. Places the viewer's cart as an Order in ONE transaction: a
 * snapshot of lines, current prices and totals; stock decremented only where enough is
 * left (so the last unit cannot be sold twice); the cart emptied; the Store's next order
 * number. The form's idempotency key makes a replayed or double-clicked submit return the
 * first Order instead of a second. Contention is retried, then refused with StoreBusyError
 * (a 503 for the page), with nothing written (docs/decisions/030).
 */
export async function placeOrder({
	db,
	viewer,
	details,
	connectionHandle,
	shippingRateId,
	discountCode,
	idempotencyKey,
}: {
	db: Db
	viewer: Viewer
	details: CheckoutDetails
	connectionHandle: string
	/** The shipping rate the buyer chose; needed once the Store has shipping zones [R119]. */
	shippingRateId?: string
	/** The discount code the buyer typed, if any: applied on the server or refused [R132–R134]. */
	discountCode?: string
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

	const place = () =>
		db.$transaction(async (tx) => {
			await limitLockWaits(db, tx)
			const cartLines = await cartToPlace(tx, storeId, owner)
			const cart = cartLines[0] ? { id: cartLines[0].cartId, lines: cartLines } : null
			if (!cart) throw new DomainError(409, 'Your cart is empty.')
			for (const line of cart.lines) {
				if (line.product.status !== 'active') {
					throw new DomainError(409, `${line.product.title} is no longer available. Remove it from your cart.`)
				}
			}
			// [R121] What was bought is the variant: its price now, its title and SKU kept with the line.
			const lines = cart.lines.map((line) => ({
				productId: line.product.id,
				variantId: line.variant.id,
				title: line.product.title,
				variantTitle: line.variant.title,
				sku: line.variant.sku,
				unitPriceMinor: line.variant.priceMinor,
				quantity: line.quantity,
				lineTotalMinor: line.variant.priceMinor * line.quantity,
			}))
			const subtotalMinor = goodsMinorOf(cart.lines)
			// Prices may have risen since the cart was filled: no total the columns cannot hold.
			if (!withinOrderLimit(subtotalMinor)) throw new DomainError(409, ORDER_LIMIT_MESSAGE)
			const buyer = buyerOf(owner, details.email)
			// The code as it applies to these goods now; its use is counted once the Order exists.
			const discount: ChosenDiscount | null = discountCode?.trim() ? await chooseDiscount(tx, { storeId, typed: discountCode, subtotalMinor, buyer }) : null
			// Shipping and tax as the Store has them now, for the address given [R119].
			const priced = await shippingAndTax(tx, storeId, { country: details.country, rateId: shippingRateId })

			// Every checkout takes its rows in one order (by variant id): two carts holding the same
			// variants in opposite order wait for each other instead of deadlocking.
			for (const line of [...cart.lines].sort(byVariantId)) {
				const taken = await tx.productVariant.updateMany({
					where: { id: line.variant.id, storeId, stock: { gte: line.quantity }, product: { status: 'active' } },
					data: { stock: { decrement: line.quantity } },
				})
				if (taken.count !== 1) {
					throw new DomainError(409, `Not enough of ${lineName(line.product.title, line.variant.title)} is left in stock. Update your cart.`)
				}
			}
			await tx.cartLine.deleteMany({ where: { cartId: cart.id } })

			// The Store's counter last: every checkout needs that one row, so it is held for the
			// fewest statements. Numbers stay gapless (a rolled-back checkout gives its number back).
			const store = await tx.store.update({
				where: { id: storeId },
				data: { lastOrderNumber: { increment: 1 } },
				select: { currency: true, lastOrderNumber: true, pricesIncludeTax: true },
			})
			// A total over the limit rolls all of the above back.
			const totals = orderTotals({ subtotalMinor, ...priced, pricesIncludeTax: store.pricesIncludeTax, discount })
			if (!withinOrderLimit(totals.totalMinor)) throw new DomainError(409, ORDER_LIMIT_MESSAGE)
			const number = store.lastOrderNumber
			// [R140] An Order with nothing to pay needs no payment step: paid as it is placed, never
			// sent to a provider (Stripe refuses a session for nothing), and nothing captured to refund.
			const nothingToPay = totals.totalMinor === 0
			const id = randomUUID()
			const tokenHash = hashOrderToken(orderToken(id))
			await tx.order.create({
				select: { id: true },
				data: {
					id,
					storeId,
					number,
					tokenHash,
					userId: 'userId' in owner ? owner.userId : null,
					guestId: viewer.guestId ?? null,
					...details,
					currency: store.currency,
					subtotalMinor,
					shippingMinor: totals.shippingMinor,
					shippingName: priced.shipping?.name ?? null,
					taxMinor: totals.taxMinor,
					taxRateBasisPoints: totals.taxRateBasisPoints,
					taxIncluded: totals.taxIncluded,
					discountCode: discount?.code ?? null,
					discountKind: discount?.kind ?? null,
					discountMinor: totals.discountMinor,
					totalMinor: totals.totalMinor,
					connectionId: connection.id,
					idempotencyKey,
					...(nothingToPay ? { status: 'paid', paidAt: new Date(), capturedMinor: 0, paymentNote: NO_PAYMENT_DUE } : {}),
				},
			})
			await insertLines(tx, id, lines)
			if (discount) await redeemDiscount(tx, discount, { orderId: id, buyer })
			await orderMail(tx, { storeId, id, email: details.email }, 'placed')
			return {
				id,
				number,
				storeId,
				email: details.email,
				currency: store.currency,
				totalMinor: totals.totalMinor,
				shippingMinor: totals.shippingMinor,
				shippingName: priced.shipping?.name ?? null,
				taxMinor: totals.taxMinor,
				taxIncluded: totals.taxIncluded,
				discountCode: discount?.code ?? null,
				discountKind: discount?.kind ?? null,
				discountMinor: totals.discountMinor,
				status: nothingToPay ? 'paid' : 'awaiting_payment',
				providerRef: null,
				tokenHash,
				connection,
				lines,
			}
		}, CHECKOUT_CONTENTION.transaction)

	const attempt = async () => {
		try {
			const order = await place()
			// Stock moved and the cart is empty: what pages show of both is read again.
			announce('catalog-changed')
			forgetCartCount(viewer)
			return { order: withToken(order), replayed: false }
		} catch (error) {
			// A double submit that lost the race finds the winner's Order (its cart is empty by now).
			if (isUniqueViolation(error, 'idempotencyKey') || error instanceof DomainError || isRepeatedRedemption(error)) {
				const raced = await replay()
				if (raced) return raced
			}
			// The same customer's other checkout took the once-per-customer use at the same moment.
			if (isRepeatedRedemption(error)) throw refused('already_used')
			throw error
		}
	}

	try {
		return await retryOnContention(attempt)
	} catch (error) {
		// A try that timed out while its commit went through has placed the Order after all.
		if (error instanceof StoreBusyError) {
			const placed = await replay()
			if (placed) return placed
		}
		throw error
	}
}

/** A code as it applies to the viewer's cart now, for the checkout's summary before placing. */
export type DiscountPreview = { code: string; kind: string; goodsMinor: number; freeShipping: boolean }

/**
 * The code `typed` as it would apply if the viewer's cart were placed now [R132, R133]: read by
 * the same two steps placing takes (the cart as `placeOrder` prices it, then `chooseDiscount`),
 * so the summary's discount is the server's figure and the total follows from `orderTotals`
 * as at placing. Refused with the reason on the `discountCode` field; writes nothing, and
 * placing checks the code again in its transaction.
 */
export async function previewDiscount({ db, viewer, typed, email }: { db: Db; viewer: Viewer; typed: string; email: string }): Promise<DiscountPreview> {
	const owner = cartOwner(viewer)
	const lines = await cartToPlace(db, viewer.storeId, owner)
	if (lines.length === 0) throw new DomainError(409, 'Your cart is empty.')
	const buyer = buyerOf(owner, email)
	const { code, kind, goodsMinor, freeShipping } = await chooseDiscount(db, { storeId: viewer.storeId, typed, subtotalMinor: goodsMinorOf(lines), buyer })
	return { code, kind, goodsMinor, freeShipping }
}

/** What a cart's goods cost now: each variant's price times its quantity, before any discount. */
function goodsMinorOf(lines: CartLineToPlace[]) {
	return lines.reduce((sum, line) => sum + line.variant.priceMinor * line.quantity, 0)
}

/** Who buys, as a code's once-per-customer rule reads it: the account, else the email typed. */
function buyerOf(owner: ReturnType<typeof cartOwner>, email: string) {
	return { email, userId: 'userId' in owner ? owner.userId : null }
}

/** The Order as checkout answers it: its link's token instead of the hash, and nothing of who owns it. */
function withToken(order: Omit<PlacedOrder, 'token'> & { tokenHash: string; userId?: string | null; guestId?: string | null }): PlacedOrder {
	const { tokenHash, userId: _userId, guestId: _guestId, ...placed } = order
	return { ...placed, token: existingOrderToken(placed.id, tokenHash) }
}
