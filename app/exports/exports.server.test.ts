import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, anotherStore, openPrivateTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { EXPORT_BATCH, ORDER_COLUMNS, ordersCsv } from './orders-csv.server'
import { PRODUCT_COLUMNS, productsCsv } from './products-csv.server'

/** Every chunk an export yields, and the whole text. */
async function drain(chunks: AsyncGenerator<string, void>) {
	const all: string[] = []
	for await (const chunk of chunks) all.push(chunk)
	return { chunks: all, text: all.join('') }
}

/** A CSV's rows as arrays of cells (every cell quoted, no line breaks in these fixtures). */
const rowsOf = (text: string) =>
	text
		.trimEnd()
		.split('\r\n')
		.map((row) => row.slice(1, -1).split('","'))

describe.each(PROVIDERS)('CSV exports on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer
	let connectionId: string

	async function order(storeId: string, number: number, at: string, extra: Record<string, unknown> = {}, lines = 1) {
		await t.db.order.create({
			data: {
				storeId,
				number,
				tokenHash: randomUUID(),
				email: `buyer-${number}@example.com`,
				name: '=cmd|calc',
				addressLine1: '1 Road',
				city: 'Town',
				postalCode: '1',
				country: 'DE',
				currency: 'EUR',
				subtotalMinor: 2000 * lines,
				shippingMinor: 495,
				shippingName: 'Standard',
				taxMinor: 380,
				taxRateBasisPoints: 1900,
				totalMinor: 2000 * lines + 495 + 380,
				capturedMinor: 2000 * lines + 495 + 380,
				refundedMinor: 500,
				status: 'paid',
				connectionId:
					storeId === t.storeId
						? connectionId
						: (await t.db.connection.create({ data: { storeId, handle: `o-${number}`, provider: 'offline', displayName: 'B' } })).id,
				idempotencyKey: randomUUID(),
				createdAt: new Date(at),
				lines: {
					create: Array.from({ length: lines }, (_, i) => ({
						title: `Mug ${i}`,
						variantTitle: 'L',
						sku: `MUG-${i}`,
						unitPriceMinor: 2000,
						quantity: 1,
						lineTotalMinor: 2000,
						position: i,
					})),
				},
				...extra,
			},
		})
	}

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		admin = (await signUpAdmin(t, `owner-${randomUUID()}@example.com`)).viewer
		connectionId = (await t.db.connection.create({ data: { storeId: t.storeId, handle: 'offline', provider: 'offline', displayName: 'Bank' } })).id
		await order(t.storeId, 1001, '2026-01-10T12:00:00Z', {}, 2)
		await order(t.storeId, 1002, '2026-01-31T23:59:59Z', { discountCode: 'SPRING', discountKind: 'fixed', discountMinor: 500 })
		await order(t.storeId, 1003, '2026-02-01T00:00:00Z')
		const other = await anotherStore(t.db)
		await order(other.id, 1004, '2026-01-15T12:00:00Z')
	})
	afterAll(() => t.close())

	it('exports the Store’s Orders with lines, shipping, discounts, tax and refunds, order money on the first line only, formulas inert [R128, R132]', async () => {
		const rows = rowsOf((await drain(ordersCsv(t.db, admin, {}))).text)
		expect(rows[0]).toEqual([...ORDER_COLUMNS])
		const col = (name: (typeof ORDER_COLUMNS)[number]) => ORDER_COLUMNS.indexOf(name)
		expect(rows.slice(1).map((row) => row[col('order_number')])).toEqual(['1001', '1001', '1002', '1003'])
		const [first, second] = [rows[1]!, rows[2]!]
		expect(first[col('total')]).toBe('48.75')
		expect(first[col('shipping')]).toBe('4.95')
		expect(first[col('tax')]).toBe('3.80')
		expect(first[col('tax_rate_percent')]).toBe('19')
		expect(first[col('refunded')]).toBe('5.00')
		expect([first[col('discount_code')], first[col('discount')]]).toEqual(['', '0.00'])
		const discounted = rows.find((row) => row[col('order_number')] === '1002')!
		expect([discounted[col('discount_code')], discounted[col('discount')]]).toEqual(['SPRING', '5.00'])
		expect(first[col('name')]).toBe("'=cmd|calc")
		expect([first[col('line_title')], first[col('line_sku')], second[col('line_title')]]).toEqual(['Mug 0', 'MUG-0', 'Mug 1'])
		// The second line of an Order repeats its number only: a column's sum is the Orders' sum.
		expect(second[col('total')]).toBe('')
		expect(second[col('email')]).toBe('')
		// Another Store's Order is never in it.
		expect(rows.some((row) => row[col('order_number')] === '1004')).toBe(false)
	})

	it('takes a date range of whole UTC days [R128]', async () => {
		const january = rowsOf((await drain(ordersCsv(t.db, admin, { from: new Date('2026-01-11T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') }))).text)
		expect(january.slice(1).map((row) => row[0])).toEqual(['1002'])
		const none = rowsOf((await drain(ordersCsv(t.db, admin, { from: new Date('2027-01-01T00:00:00Z') }))).text)
		expect(none).toHaveLength(1)
	})

	it('reads Orders a batch at a time: no batch is ever more than EXPORT_BATCH Orders [R128]', async () => {
		const { id: storeId } = await anotherStore(t.db)
		const owner: AdminViewer = { ...admin, storeId }
		const { id } = await t.db.connection.create({ data: { storeId, handle: 'offline', provider: 'offline', displayName: 'B' } })
		const count = EXPORT_BATCH * 2 + 7
		const base = {
			storeId,
			email: 'b@example.com',
			name: 'B',
			addressLine1: '1',
			city: 'C',
			postalCode: '1',
			country: 'DE',
			currency: 'EUR',
			subtotalMinor: 1,
			totalMinor: 1,
			connectionId: id,
		}
		for (let start = 0; start < count; start += 250) {
			await t.db.order.createMany({
				data: Array.from({ length: Math.min(250, count - start) }, (_, i) => ({
					...base,
					number: start + i + 1,
					tokenHash: randomUUID(),
					idempotencyKey: randomUUID(),
				})),
			})
		}
		const { chunks, text } = await drain(ordersCsv(t.db, owner, {}))
		// The header, then one chunk per batch: three batches for 1,007 Orders.
		expect(chunks).toHaveLength(4)
		for (const chunk of chunks.slice(1)) expect(chunk.split('\r\n').length - 1).toBeLessThanOrEqual(EXPORT_BATCH)
		const numbers = rowsOf(text)
			.slice(1)
			.map((row) => Number(row[0]))
		expect(numbers).toHaveLength(count)
		expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
	})

	it('exports Products a row per variant with option names and values, only the Store’s own [R128]', async () => {
		await t.db.product.create({
			data: {
				storeId: t.storeId,
				slug: 'tee',
				title: '@Tee',
				priceMinor: 1500,
				status: 'active',
				optionNames: JSON.stringify(['Size', 'Colour']),
				variants: {
					create: [
						{ storeId: t.storeId, optionValues: JSON.stringify(['S', 'Red']), title: 'S / Red', sku: 'TEE-S-R', priceMinor: 1500, stock: 3, position: 0 },
						{ storeId: t.storeId, optionValues: JSON.stringify(['M', 'Red']), title: 'M / Red', sku: 'TEE-M-R', priceMinor: 1600, stock: 0, position: 1 },
					],
				},
			},
		})
		const { id: otherStore } = await anotherStore(t.db)
		await t.db.product.create({
			data: { storeId: otherStore, slug: 'secret', title: 'Not yours', priceMinor: 1, variants: { create: [{ storeId: otherStore, priceMinor: 1 }] } },
		})
		const rows = rowsOf((await drain(productsCsv(t.db, admin))).text)
		expect(rows[0]).toEqual([...PRODUCT_COLUMNS])
		const tee = rows.filter((row) => row[0] === 'tee')
		expect(tee).toEqual([
			['tee', "'@Tee", 'active', 'Size / Colour', 'S / Red', 'S / Red', 'TEE-S-R', '15.00', '3'],
			['tee', "'@Tee", 'active', 'Size / Colour', 'M / Red', 'M / Red', 'TEE-M-R', '16.00', '0'],
		])
		expect(rows.some((row) => row[0] === 'secret')).toBe(false)
	})
})
