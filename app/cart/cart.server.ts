import type { Db } from '../data/db.server'
import { sharedCache } from '../data/shared-cache.server'
import type { Viewer } from '../data/viewer'
import { isUniqueViolation } from '../data/unique-violation'
import { DomainError, notFound } from '../errors.server'

import { MAX_LINE_QUANTITY, ORDER_LIMIT_MESSAGE, withinOrderLimit } from '../rules/limits'
import { lineName } from '../rules/variants'
import type { StoreScope } from '../data/scope'

export { MAX_LINE_QUANTITY }

/** How many times an add reads the cart again after another add changed it first. */
const ADD_ATTEMPTS = 8

type Owner = { userId: string } | { guestId: string }

/** A Customer's cart is theirs; a Guest's belongs to the signed guestId cookie [R2]. */
export function cartOwner(viewer: Viewer): Owner {
	return viewer.kind === 'user' ? { userId: viewer.userId } : { guestId: viewer.guestId }
}

/**
 * the header's item count is on every page; kept in memory per cart owner
 * (shared-cache.server.ts) and forgotten by every write to that owner's cart.
 */
const itemCounts = sharedCache<number>({ topic: 'cart-count', ttlMs: 30_000, max: 10_000 })
const countKey = (storeId: string, owner: Owner) =>
	'userId' in owner ? `${storeId}\u0000user\u0000${owner.userId}` : `${storeId}\u0000guest\u0000${owner.guestId}`

/** After a committed write to the viewer's cart (checkout empties it). */
export function forgetCartCount(viewer: Viewer) {
	itemCounts.forget(countKey(viewer.storeId, cartOwner(viewer)))
}

const lineFields = {
	id: true,
	quantity: true,
	product: { select: { id: true, slug: true, title: true, status: true, imageKey: true } },
	variant: { select: { id: true, title: true, priceMinor: true, stock: true } },
} as const

/**
 * The viewer's cart [R2] (Cart belongs to a Customer or a Guest). Every query is scoped
 * to the Store and the owner; a line or product id that is not the owner's, or a product that
 * is not active, is a 404 and changes nothing. Totals come from current prices, never forms.
 */
export function cartRepository(db: Db, viewer: Viewer) {
	const owner = cartOwner(viewer)
	const cartWhere = { storeId: viewer.storeId, ...owner }

	const findCart = () => db.cart.findFirst({ where: cartWhere, select: { id: true } })
	const ensureCart = async () => {
		const existing = await findCart()
		if (existing) return existing
		try {
			return await db.cart.create({ data: { storeId: viewer.storeId, ...owner }, select: { id: true } })
		} catch (error) {
			// Two first adds at once: the unique (storeId, owner) lets one win; use it.
			const raced = await findCart()
			// Its cause says why (a database away answers 503 [R124]).
			if (!raced) throw new Error('cart could not be created', { cause: error })
			return raced
		}
	}

	/**
	 * The variant a shopper adds [R121]: one of this active Product's, in the viewer's Store. A
	 * variant of another Product (or Store) is not found; a Product of several variants needs one
	 * chosen, and one of a single variant takes it without.
	 */
	const activeVariant = async (productId: string, variantId: string | undefined) => {
		const product = await db.product.findFirst({
			where: { id: productId, storeId: viewer.storeId, status: 'active' },
			select: {
				id: true,
				title: true,
				variants: { where: variantId ? { id: variantId } : {}, take: 2, select: { id: true, title: true, stock: true, priceMinor: true } },
			},
		})
		if (!product) throw notFound('That product')
		const [variant, another] = product.variants
		if (!variant) throw notFound('That variant')
		if (another) throw new DomainError(400, `Choose which ${product.title} you want.`, 'variantId')
		return { ...variant, productId: product.id, name: lineName(product.title, variant.title) }
	}

	const checkQuantity = (quantity: number, stock: number, title: string) => {
		if (stock <= 0) throw new DomainError(409, `${title} is out of stock.`, 'quantity')
		if (quantity > Math.min(stock, MAX_LINE_QUANTITY)) {
			throw new DomainError(409, `Only ${Math.min(stock, MAX_LINE_QUANTITY)} of ${title} can be ordered.`, 'quantity')
		}
	}

	const pricedLines = (cartId: string) =>
		db.cartLine.findMany({ where: { cartId }, select: { id: true, variantId: true, quantity: true, variant: { select: { priceMinor: true } } } })

	// The whole cart, with this line at its new quantity, must stay an Order both engines can
	// hold (docs/decisions/030); checkout checks again with the prices of that moment.
	const checkOrderLimit = (lines: Awaited<ReturnType<typeof pricedLines>>, line: { variantId: string; quantity: number; priceMinor: number }) => {
		const others = lines.filter((other) => other.variantId !== line.variantId)
		const subtotal = others.reduce((sum, other) => sum + other.variant.priceMinor * other.quantity, line.priceMinor * line.quantity)
		if (!withinOrderLimit(subtotal)) throw new DomainError(409, ORDER_LIMIT_MESSAGE, 'quantity')
	}

	/** Whether the line was written as read: false when another add changed or created it first. */
	const writeLine = async (
		cartId: string,
		variant: { id: string; productId: string },
		existing: { id: string; quantity: number } | undefined,
		total: number,
	) => {
		if (existing) {
			const { count } = await db.cartLine.updateMany({ where: { id: existing.id, quantity: existing.quantity }, data: { quantity: total } })
			return count === 1
		}
		try {
			await db.cartLine.create({ data: { cartId, productId: variant.productId, variantId: variant.id, quantity: total } })
			return true
		} catch (error) {
			if (isUniqueViolation(error)) return false
			throw error
		}
	}

	const ownLine = async (lineId: string) => {
		const line = await db.cartLine.findFirst({
			where: { id: lineId, cart: cartWhere },
			select: {
				id: true,
				cartId: true,
				variantId: true,
				product: { select: { title: true, status: true } },
				variant: { select: { stock: true, title: true, priceMinor: true } },
			},
		})
		if (!line) throw notFound('That cart line')
		return line
	}

	return {
		async summary() {
			const cart = await db.cart.findFirst({
				where: cartWhere,
				select: { id: true, lines: { select: lineFields, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
			})
			const lines = (cart?.lines ?? []).map((line) => {
				const available = line.product.status === 'active' && line.variant.stock >= line.quantity
				return { ...line, lineTotalMinor: line.variant.priceMinor * line.quantity, available }
			})
			const subtotalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0)
			return { lines, subtotalMinor, itemCount: lines.reduce((sum, line) => sum + line.quantity, 0) }
		},

		itemCount() {
			// A first visit's cart is empty: no query, and no cache entry for every crawler's new id.
			if (viewer.kind === 'guest' && viewer.fresh) return Promise.resolve(0)
			return itemCounts.get(countKey(viewer.storeId, owner), async () => {
				const result = await db.cartLine.aggregate({ where: { cart: cartWhere }, _sum: { quantity: true } })
				return result._sum.quantity ?? 0
			})
		},

		async add({ productId, variantId, quantity }: { productId: string; variantId?: string; quantity: number }) {
			const variant = await activeVariant(productId, variantId)
			const cart = await ensureCart()
			// [R143] Adds at the same moment (a double click, two tabs) end as they would one after
			// another: a line is written only as it was read (compare-and-set), and a line another add
			// created first is read again, so no add is lost and none answers 500.
			for (let attempt = 1; ; attempt++) {
				const lines = await pricedLines(cart.id)
				const existing = lines.find((line) => line.variantId === variant.id)
				const total = (existing?.quantity ?? 0) + quantity
				checkQuantity(total, variant.stock, variant.name)
				checkOrderLimit(lines, { variantId: variant.id, quantity: total, priceMinor: variant.priceMinor })
				if (await writeLine(cart.id, variant, existing, total)) break
				if (attempt === ADD_ATTEMPTS) throw new DomainError(409, 'Your cart changed while adding this. Try again.', 'quantity')
			}
			forgetCartCount(viewer)
			return { title: variant.name }
		},

		async update(lineId: string, quantity: number) {
			const line = await ownLine(lineId)
			if (line.product.status !== 'active') throw notFound('That product')
			checkQuantity(quantity, line.variant.stock, lineName(line.product.title, line.variant.title))
			checkOrderLimit(await pricedLines(line.cartId), { variantId: line.variantId, quantity, priceMinor: line.variant.priceMinor })
			await db.cartLine.update({ where: { id: line.id }, data: { quantity } })
			forgetCartCount(viewer)
		},

		async remove(lineId: string) {
			const line = await ownLine(lineId)
			await db.cartLine.delete({ where: { id: line.id } })
			forgetCartCount(viewer)
		},
	}
}

/**
 * When a Guest signs in or signs up, the guest cart joins the Customer's cart: quantities
 * add up, capped by stock (and the line maximum); inactive products are dropped. The guest
 * cart is then deleted. Runs for sign-ins through the pages and through /api/auth/* alike.
 */
export async function mergeGuestCart({ db, storeId }: StoreScope, { guestId, userId }: { guestId: string; userId: string }) {
	// Most sign-ins bring no guest cart: one read, no transaction (sign-in cost).
	if (!(await db.cart.findFirst({ where: { storeId, guestId }, select: { id: true } }))) return
	await db.$transaction(async (tx) => {
		const guestCart = await tx.cart.findFirst({
			where: { storeId, guestId },
			select: {
				id: true,
				lines: { select: { productId: true, variantId: true, quantity: true, product: { select: { status: true } }, variant: { select: { stock: true } } } },
			},
		})
		if (!guestCart) return
		if (guestCart.lines.length > 0) {
			const userCart =
				(await tx.cart.findFirst({ where: { storeId, userId }, select: { id: true } })) ??
				(await tx.cart.create({ data: { storeId, userId }, select: { id: true } }))
			for (const line of guestCart.lines) {
				if (line.product.status !== 'active') continue
				const existing = await tx.cartLine.findUnique({
					where: { cartId_variantId: { cartId: userCart.id, variantId: line.variantId } },
					select: { id: true, quantity: true },
				})
				const cap = Math.min(line.variant.stock, MAX_LINE_QUANTITY)
				const quantity = Math.min((existing?.quantity ?? 0) + line.quantity, cap)
				if (quantity <= 0) continue
				if (existing) await tx.cartLine.update({ where: { id: existing.id }, data: { quantity } })
				else await tx.cartLine.create({ data: { cartId: userCart.id, productId: line.productId, variantId: line.variantId, quantity } })
			}
		}
		await tx.cart.delete({ where: { id: guestCart.id } })
	})
	itemCounts.forget(countKey(storeId, { guestId }))
	itemCounts.forget(countKey(storeId, { userId }))
}
