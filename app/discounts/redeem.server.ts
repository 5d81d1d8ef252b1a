import type { Db } from '../data/db.server'
import { isUniqueViolation } from '../data/unique-violation'
import { DomainError } from '../errors.server'
import { type DiscountKind, type DiscountRefusal, type DiscountRule, DISCOUNT_CODE, REFUSAL_MESSAGES, goodsDiscount, normalizeCode, refusalOf } from './pricing'

type Tx = Pick<Db, 'discountCode' | 'discountRedemption' | '$executeRaw'>

/** A refused code: a 409 on the checkout form's `discountCode` field, the cart untouched. */
export const refused = (reason: DiscountRefusal) => new DomainError(409, REFUSAL_MESSAGES[reason], 'discountCode')

export type ChosenDiscount = { id: string; code: string; kind: DiscountKind; oncePerCustomer: boolean; goodsMinor: number; freeShipping: boolean }

/** What checkout and Store Admin read of a code. */
export const discountFields = {
	id: true,
	code: true,
	kind: true,
	value: true,
	minimumSubtotalMinor: true,
	startsAt: true,
	endsAt: true,
	usageLimit: true,
	usedCount: true,
	oncePerCustomer: true,
	active: true,
} as const

/** The buyer's keys for a once-per-customer code: the account, and the email in one spelling. */
const customerKeys = (buyer: { email: string; userId: string | null }) => ({ onceEmail: buyer.email.trim().toLowerCase(), onceUserId: buyer.userId })

/**
 * The code `typed` as it applies to a cart of `subtotalMinor` for `buyer`, or a refusal that says
 * why in words naming no other code [R133]. Reads only: `redeemDiscount` counts the use.
 */
export async function chooseDiscount(
	tx: Tx,
	{
		storeId,
		typed,
		subtotalMinor,
		buyer,
		now = new Date(),
	}: { storeId: string; typed: string; subtotalMinor: number; buyer: { email: string; userId: string | null }; now?: Date },
): Promise<ChosenDiscount> {
	const code = normalizeCode(typed)
	const row = DISCOUNT_CODE.test(code) ? await tx.discountCode.findUnique({ where: { storeId_code: { storeId, code } }, select: discountFields }) : null
	const reason = refusalOf(row as DiscountRule | null, { subtotalMinor, now })
	if (reason || !row) throw refused(reason ?? 'unknown')
	if (row.oncePerCustomer) {
		const { onceEmail, onceUserId } = customerKeys(buyer)
		const used = await tx.discountRedemption.findFirst({
			where: { discountId: row.id, OR: [{ onceEmail }, ...(onceUserId ? [{ onceUserId }] : [])] },
			select: { id: true },
		})
		if (used) throw refused('already_used')
	}
	const kind = row.kind as DiscountKind
	return {
		id: row.id,
		code: row.code,
		kind,
		oncePerCustomer: row.oncePerCustomer,
		goodsMinor: goodsDiscount({ kind, value: row.value }, subtotalMinor),
		freeShipping: kind === 'free_shipping',
	}
}

/**
 * Counts one use of `discount` by the Order `orderId`, in the Order's transaction [R134]. The
 * count is raised by one statement that holds only while it is below the limit, so on either
 * engine the limit's last use goes to exactly one Order however many try at once (PostgreSQL
 * re-reads the row after the lock it waited for; SQLite has one writer); the loser's whole
 * checkout rolls back. A second use by the same customer meets the unique keys.
 */
export async function redeemDiscount(
	tx: Tx,
	discount: ChosenDiscount,
	{ orderId, buyer }: { orderId: string; buyer: { email: string; userId: string | null } },
) {
	const counted = await tx.$executeRaw`UPDATE "discount_codes" SET "usedCount" = "usedCount" + 1
		WHERE "id" = ${discount.id} AND "active" = ${true} AND ("usageLimit" IS NULL OR "usedCount" < "usageLimit")`
	if (counted !== 1) throw refused('used_up')
	await tx.discountRedemption.create({
		data: { discountId: discount.id, orderId, ...(discount.oncePerCustomer ? customerKeys(buyer) : {}) },
		select: { id: true },
	})
}

/** A redemption that met another of the same customer's at the same moment. */
export const isRepeatedRedemption = (error: unknown) => isUniqueViolation(error, 'onceEmail') || isUniqueViolation(error, 'onceUserId')

/**
 * Gives an Order's use of its code back (a cancelled unpaid Order) [R134]: the redemption goes,
 * and the count falls by one, never below zero. Nothing when the Order used no code.
 */
export async function releaseDiscount(tx: Tx, orderId: string) {
	const redemption = await tx.discountRedemption.findUnique({ where: { orderId }, select: { id: true, discountId: true } })
	if (!redemption) return
	await tx.discountRedemption.delete({ where: { id: redemption.id }, select: { id: true } })
	await tx.$executeRaw`UPDATE "discount_codes" SET "usedCount" = "usedCount" - 1 WHERE "id" = ${redemption.discountId} AND "usedCount" > 0`
}
