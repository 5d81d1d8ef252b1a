import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { csvLine, decimal } from '../rules/csv'

/** Orders read per query: a batch is all an export ever holds in memory. */
export const EXPORT_BATCH = 500

export const ORDER_COLUMNS = [
	'order_number',
	'created_at',
	'status',
	'email',
	'name',
	'address_line1',
	'address_line2',
	'city',
	'postal_code',
	'country',
	'currency',
	'subtotal',
	'shipping_method',
	'shipping',
	'discount_code',
	'discount',
	'tax_rate_percent',
	'tax',
	'tax_included',
	'total',
	'captured',
	'refunded',
	'paid_at',
	'shipped_at',
	'carrier',
	'tracking_number',
	'line_title',
	'line_variant',
	'line_sku',
	'line_quantity',
	'line_unit_price',
	'line_total',
] as const

const iso = (date: Date | null) => (date ? date.toISOString() : '')

/**
 * [R128] The Store's Orders created in [from, to) as CSV (the discount too [R132]), one row per line: the Order's own
 * columns on its first line only (so a column's sum is the Orders' sum), oldest number first.
 * An async generator read in batches of EXPORT_BATCH by order number (the Store's unique
 * (storeId, number) key), so the caller writes each batch to the response before the next is
 * read: a hundred thousand Orders are never in memory at once.
 */
export async function* ordersCsv(db: Db, admin: AdminViewer, { from, to }: { from?: Date; to?: Date }) {
	yield csvLine(ORDER_COLUMNS)
	let after = 0
	for (;;) {
		const orders = await db.order.findMany({
			where: { storeId: admin.storeId, number: { gt: after }, createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } },
			orderBy: { number: 'asc' },
			take: EXPORT_BATCH,
			select: {
				number: true,
				createdAt: true,
				status: true,
				email: true,
				name: true,
				addressLine1: true,
				addressLine2: true,
				city: true,
				postalCode: true,
				country: true,
				currency: true,
				subtotalMinor: true,
				shippingName: true,
				shippingMinor: true,
				discountCode: true,
				discountMinor: true,
				taxRateBasisPoints: true,
				taxMinor: true,
				taxIncluded: true,
				totalMinor: true,
				capturedMinor: true,
				refundedMinor: true,
				paidAt: true,
				shippedAt: true,
				carrier: true,
				trackingNumber: true,
				lines: {
					orderBy: [{ position: 'asc' }, { id: 'asc' }],
					select: { title: true, variantTitle: true, sku: true, quantity: true, unitPriceMinor: true, lineTotalMinor: true },
				},
			},
		})
		if (orders.length === 0) return
		let chunk = ''
		for (const order of orders) {
			const own = [
				order.number,
				iso(order.createdAt),
				order.status,
				order.email,
				order.name,
				order.addressLine1,
				order.addressLine2,
				order.city,
				order.postalCode,
				order.country,
				order.currency,
				decimal(order.subtotalMinor),
				order.shippingName ?? '',
				decimal(order.shippingMinor),
				order.discountCode ?? '',
				decimal(order.discountMinor),
				(order.taxRateBasisPoints / 100).toString(),
				decimal(order.taxMinor),
				order.taxIncluded ? 'yes' : 'no',
				decimal(order.totalMinor),
				decimal(order.capturedMinor),
				decimal(order.refundedMinor),
				iso(order.paidAt),
				iso(order.shippedAt),
				order.carrier ?? '',
				order.trackingNumber ?? '',
			]
			const repeated = [order.number, ...own.slice(1).map(() => '')]
			const lines = order.lines.length > 0 ? order.lines : [null]
			lines.forEach((line, index) => {
				const lineCells = line
					? [line.title, line.variantTitle, line.sku ?? '', line.quantity, decimal(line.unitPriceMinor), decimal(line.lineTotalMinor)]
					: ['', '', '', '', '', '']
				chunk += csvLine([...(index === 0 ? own : repeated), ...lineCells])
			})
		}
		yield chunk
		after = orders[orders.length - 1]!.number
	}
}
