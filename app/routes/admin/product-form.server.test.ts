import { describe, expect, it } from 'vitest'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../../cart/limits'
import { readProductForm } from './product-form.server'

const valid = { title: 'Mug', slug: 'mug', description: '', price: '24.50', stock: '7', status: 'active', imageKey: '' }

const submit = (fields: Record<string, string>) =>
	readProductForm(
		new Request('http://store.test/admin/products/new', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields).toString(),
		}),
	)

const fieldError = async (fields: Record<string, string>, field: string) => {
	const result = await submit(fields)
	return result.ok ? undefined : result.fieldErrors[field]
}

describe('the admin product form: prices and stock both engines can hold', () => {
	it('takes up to 999,999.99 and 999,999; refuses 9,999,999.99, anything past the limits and wrong shapes as field errors [R67]', async () => {
		expect(await submit({ ...valid, price: '999999.99', stock: '999999' })).toMatchObject({
			ok: true,
			data: { priceMinor: MAX_UNIT_PRICE_MINOR, stock: MAX_STOCK },
		})
		expect(await submit({ ...valid, price: '0', stock: '0' })).toMatchObject({ ok: true, data: { priceMinor: 0, stock: 0 } })

		for (const price of ['9999999.99', '1000000', '999999999']) expect(await fieldError({ ...valid, price }, 'price'), price).toBe(LIMIT_ERRORS.price)
		expect(await fieldError({ ...valid, stock: '1000000' }, 'stock')).toBe(LIMIT_ERRORS.stock)

		for (const price of ['-1', '1.999', 'abc', '1e3', '', ' ', '1,000', '0x10', '12.3.4', '9999999999']) {
			expect(await fieldError({ ...valid, price }, 'price'), price).toMatch(/^Enter a price/)
		}
		for (const stock of ['-1', '1.5', 'abc', '', '1e3', '9999999999']) {
			expect(await fieldError({ ...valid, stock }, 'stock'), stock).toMatch(/^Enter a/)
		}
	})
})
