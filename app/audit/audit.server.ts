import { type Db, transaction } from '../data/db.server'
import { beyondTimeKey, keysetPage, timeKey, type Cursor } from '../data/keyset'
import { storeCounts } from '../data/store-counts.server'
import { isUniqueViolation } from '../data/unique-violation'
import type { AdminViewer } from '../data/viewer'
import type { AuditAction } from '../rules/audit-actions'

/**
 * The Store Admin activity log: every admin write adds one row in the SAME
 * transaction as the change, so a failed change leaves no entry and a change never goes
 * unrecorded. Append-only: nothing in the store updates or deletes these rows.
 */
export type AuditInput = {
	action: AuditAction
	targetType: string
	targetId: string
	detail?: Record<string, unknown>
}

type Tx = Pick<Db, 'auditEntry'>

/** The audit row for `admin`'s change, to be written with the change in one transaction. */
export function auditEntry(tx: Tx, admin: AdminViewer, input: AuditInput) {
	return tx.auditEntry.create({
		data: {
			storeId: admin.storeId,
			actorId: admin.userId,
			actorEmail: admin.email,
			action: input.action,
			targetType: input.targetType,
			targetId: input.targetId,
			detail: input.detail ? JSON.stringify(input.detail).slice(0, 2000) : null,
		},
		select: { id: true },
	})
}

/**
 * An admin's change and its audit row in one transaction, the shape every admin write has:
 * `write` makes the change, `entry` names it in the log from what `write` returned; once the
 * transaction has ended, committed or not, `forget` drops what a cache kept of the old state; a
 * unique-key clash becomes what `duplicate` says it means to the form that sent it (a 409 on
 * the field), any other error goes on as it was.
 */
export async function auditedChange<T>(
	db: Db,
	admin: AdminViewer,
	change: {
		write: (tx: Db) => Promise<T>
		entry: (result: T) => AuditInput
		forget?: () => void
		duplicate?: (error: unknown) => Error
	},
): Promise<T> {
	try {
		return await transaction(db, async (tx) => {
			const result = await change.write(tx)
			await auditEntry(tx, admin, change.entry(result))
			return result
		})
	} catch (error) {
		throw change.duplicate && isUniqueViolation(error) ? change.duplicate(error) : error
	} finally {
		change.forget?.()
	}
}

export const AUDIT_PAGE_SIZE = 50

/** Reading the log: the admin's own Store only, newest first. */
export function auditRepository(db: Db, admin: AdminViewer) {
	return {
		/** A page of the log, newest first, from the key of the entry at its edge [R142]. */
		async page({ cursor = null }: { cursor?: Cursor } = {}) {
			const where = { storeId: admin.storeId }
			const [found, total] = await Promise.all([
				keysetPage({
					cursor,
					size: AUDIT_PAGE_SIZE,
					read: (from, direction, take) => {
						const order = direction === 'older' ? 'desc' : 'asc'
						return db.auditEntry.findMany({
							where: from === null ? where : { ...where, ...beyondTimeKey('createdAt', from, direction) },
							orderBy: [{ createdAt: order }, { id: order }],
							take,
							select: { id: true, actorEmail: true, action: true, targetType: true, targetId: true, detail: true, createdAt: true },
						})
					},
					keyOf: (entry) => timeKey(entry.createdAt, entry.id),
				}),
				// Kept with every entry written (store_counts) rather than counted on each visit.
				storeCounts(db, admin.storeId, ['audit']).then((counts) => counts.audit),
			])
			const targets = await targetsOf(db, admin.storeId, found.rows)
			return {
				entries: found.rows.map((entry) => ({ ...entry, target: targets.get(`${entry.targetType}:${entry.targetId}`) ?? null })),
				newer: found.newer,
				older: found.older,
				total,
			}
		},
	}
}

export type AuditTarget = { label: string; href: string }

/**
 * What a page of entries changed, as people name it: an Order by its number (#1001), a product or
 * a collection by its title, a discount by its code, each linking to its Store Admin page. One query per kind present on
 * the page, in this Store only; a target deleted since has no name (the entry keeps its id).
 */
async function targetsOf(db: Db, storeId: string, entries: ReadonlyArray<{ targetType: string; targetId: string | null }>) {
	const idsOf = (type: string) => [...new Set(entries.filter((e) => e.targetType === type && e.targetId).map((e) => e.targetId as string))]
	// By primary key, kept to this Store here: with storeId in the WHERE, SQLite without statistics
	// walked every Order (or Product) of the Store through a storeId index to find fifty.
	const ours = <T extends { storeId: string }>(rows: T[]) => rows.filter((row) => row.storeId === storeId)
	const [orders, products, collections, discounts] = await Promise.all([
		idsOf('order').length ? db.order.findMany({ where: { id: { in: idsOf('order') } }, select: { id: true, number: true, storeId: true } }).then(ours) : [],
		idsOf('product').length
			? db.product.findMany({ where: { id: { in: idsOf('product') } }, select: { id: true, title: true, storeId: true } }).then(ours)
			: [],
		idsOf('collection').length
			? db.collection.findMany({ where: { id: { in: idsOf('collection') } }, select: { id: true, title: true, storeId: true } }).then(ours)
			: [],
		idsOf('discount').length
			? db.discountCode.findMany({ where: { id: { in: idsOf('discount') } }, select: { id: true, code: true, storeId: true } }).then(ours)
			: [],
	])
	const targets = new Map<string, AuditTarget>()
	for (const order of orders) targets.set(`order:${order.id}`, { label: `#${order.number}`, href: `/admin/orders/${order.number}` })
	for (const product of products) targets.set(`product:${product.id}`, { label: product.title, href: `/admin/products/${product.id}` })
	for (const collection of collections) targets.set(`collection:${collection.id}`, { label: collection.title, href: `/admin/collections/${collection.id}` })
	for (const discount of discounts) targets.set(`discount:${discount.id}`, { label: discount.code, href: `/admin/discounts/${discount.id}` })
	return targets
}
