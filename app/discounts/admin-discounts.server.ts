import { auditEntry } from '../audit/audit.server'
import { MAX_ORDER_TOTAL_MINOR } from '../rules/limits'
import { type Db, transaction } from '../data/db.server'
import { isUniqueViolation } from '../data/unique-violation'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { DISCOUNT_CODE, type DiscountRule, isDiscountKind, normalizeCode } from './pricing'
import { discountFields } from './redeem.server'
import type { AuditAction } from '../rules/audit-actions'

/** A code as Store Admin sets it: the rule checkout applies, its name and the once-per-customer switch. */
export type DiscountInput = Omit<DiscountRule, 'usedCount'> & { code: string; oncePerCustomer: boolean }

/** The most uses a limit may name: more than any Store sells, small enough for every column. */
export const MAX_USAGE_LIMIT = 1_000_000

const listFields = { ...discountFields, updatedAt: true } as const

/** Every value checked here, not only by the form: a repository is also called by tests and tools. */
function checked(input: DiscountInput): DiscountInput {
	const code = normalizeCode(input.code)
	if (!DISCOUNT_CODE.test(code)) throw new DomainError(400, 'Use 3 to 32 letters, digits, dashes or underscores.', 'code')
	if (!isDiscountKind(input.kind)) throw new DomainError(400, 'Choose percentage, fixed amount or free shipping.', 'kind')
	const value = input.kind === 'free_shipping' ? 0 : input.value
	if (input.kind === 'percentage' && (!Number.isSafeInteger(value) || value < 1 || value > 10_000)) {
		throw new DomainError(400, 'Enter a percentage above 0, at most 100 (like 10 or 12.5).', 'value')
	}
	if (input.kind === 'fixed' && (!Number.isSafeInteger(value) || value < 1 || value > MAX_ORDER_TOTAL_MINOR)) {
		throw new DomainError(400, 'Enter an amount above zero, at most 999,999.99 (like 5.00).', 'value')
	}
	const minimum = input.minimumSubtotalMinor
	if (minimum !== null && (!Number.isSafeInteger(minimum) || minimum < 0 || minimum > MAX_ORDER_TOTAL_MINOR)) {
		throw new DomainError(400, 'Enter an amount from 0 to 999,999.99, or leave it empty.', 'minimumSubtotal')
	}
	const limit = input.usageLimit
	if (limit !== null && (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_USAGE_LIMIT)) {
		throw new DomainError(400, `Enter a whole number from 1 to ${MAX_USAGE_LIMIT.toLocaleString('en-US')}, or leave it empty.`, 'usageLimit')
	}
	for (const [field, date] of [
		['startsAt', input.startsAt],
		['endsAt', input.endsAt],
	] as const) {
		if (date !== null && (!(date instanceof Date) || Number.isNaN(date.getTime())))
			throw new DomainError(400, 'Enter a date and time, or leave it empty.', field)
	}
	if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) throw new DomainError(400, 'The end must come after the start.', 'endsAt')
	return { ...input, code, value, oncePerCustomer: input.oncePerCustomer === true, active: input.active === true }
}

const TAKEN = 'Another discount already has this code (codes ignore case).'

/**
 * [R135] Discount codes as Store Admin keeps them: only the admin's Store (another Store's id is
 * not found), values checked here, each change with its activity-log row in the same transaction.
 * A code is never deleted (Orders name it): it is switched off. How often it was used is the
 * checkout's to count, never the form's.
 */
export function adminDiscountsRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const audit = (tx: Db, action: AuditAction, id: string, detail: Record<string, unknown>) =>
		auditEntry(tx, admin, { action, targetType: 'discount', targetId: id, detail })
	const mine = async (tx: Db, id: string) => {
		const found = await tx.discountCode.findFirst({ where: { id, storeId }, select: { id: true, code: true } })
		if (!found) throw notFound('That discount')
		return found
	}

	return {
		list: () => db.discountCode.findMany({ where: { storeId }, orderBy: [{ active: 'desc' }, { code: 'asc' }], take: 500, select: listFields }),

		byId: (id: string) => db.discountCode.findFirst({ where: { id, storeId }, select: listFields }),

		async create(input: DiscountInput) {
			const discount = checked(input)
			try {
				return await transaction(db, async (tx) => {
					const created = await tx.discountCode.create({ data: { storeId, ...discount }, select: { id: true, code: true } })
					await audit(tx, 'discount.create', created.id, { ...discount })
					return created
				})
			} catch (error) {
				if (isUniqueViolation(error)) throw new DomainError(409, TAKEN, 'code')
				throw error
			}
		},

		async update(id: string, input: DiscountInput) {
			const discount = checked(input)
			try {
				return await transaction(db, async (tx) => {
					const before = await mine(tx, id)
					await tx.discountCode.update({ where: { id: before.id }, data: discount, select: { id: true } })
					await audit(tx, 'discount.update', before.id, { ...discount, ...(before.code !== discount.code ? { was: before.code } : {}) })
					return { id: before.id, code: discount.code }
				})
			} catch (error) {
				if (isUniqueViolation(error)) throw new DomainError(409, TAKEN, 'code')
				throw error
			}
		},

		/** Switches a code on or off; an Order placed with it keeps its discount. */
		async setActive(id: string, active: boolean) {
			return transaction(db, async (tx) => {
				const found = await mine(tx, id)
				await tx.discountCode.update({ where: { id: found.id }, data: { active }, select: { id: true } })
				await audit(tx, active ? 'discount.activate' : 'discount.deactivate', found.id, { code: found.code })
				return found
			})
		},
	}
}
