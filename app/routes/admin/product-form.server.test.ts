import { describe, expect, it } from 'vitest'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../../rules/limits'
import { MAX_VARIANTS } from '../../rules/variants'
import { readProductForm } from './product-form.server'

const valid = { title: 'Mug', slug: 'mug', description: '', 'variant.0.price': '24.50', 'variant.0.stock': '7', status: 'active', imageKey: '' }

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
		expect(await submit({ ...valid, 'variant.0.price': '999999.99', 'variant.0.stock': '999999' })).toMatchObject({
			ok: true,
			data: { variants: [{ priceMinor: MAX_UNIT_PRICE_MINOR, stock: MAX_STOCK }] },
		})
		expect(await submit({ ...valid, 'variant.0.price': '0', 'variant.0.stock': '0' })).toMatchObject({
			ok: true,
			data: { variants: [{ priceMinor: 0, stock: 0 }] },
		})

		for (const price of ['9999999.99', '1000000', '999999999'])
			expect(await fieldError({ ...valid, 'variant.0.price': price }, 'variant.0.price'), price).toBe(LIMIT_ERRORS.price)
		expect(await fieldError({ ...valid, 'variant.0.stock': '1000000' }, 'variant.0.stock')).toBe(LIMIT_ERRORS.stock)

		for (const price of ['-1', '1.999', 'abc', '1e3', '', ' ', '1,000', '0x10', '12.3.4', '9999999999']) {
			expect(await fieldError({ ...valid, 'variant.0.price': price }, 'variant.0.price'), price).toMatch(/^Enter a price/)
		}
		for (const stock of ['-1', '1.5', 'abc', '', '1e3', '9999999999']) {
			expect(await fieldError({ ...valid, 'variant.0.stock': stock }, 'variant.0.stock'), stock).toMatch(/^Enter a/)
		}
	})
})

describe('the admin product form: options and variants [R121]', () => {
	const sizes = {
		...valid,
		option1Name: 'Size',
		'variant.0.option1': 'S',
		'variant.0.sku': 'TEE-S',
		'variant.1.option1': 'M',
		'variant.1.sku': 'TEE-M',
		'variant.1.price': '26',
		'variant.1.stock': '0',
		// A row left empty is not a variant.
		'variant.2.option1': '',
		'variant.2.price': '',
	}

	it('reads named options and one variant per filled row, skipping empty rows and rows ticked for removal', async () => {
		expect(await submit(sizes)).toMatchObject({
			ok: true,
			data: {
				optionNames: ['Size'],
				variants: [
					{ optionValues: ['S'], sku: 'TEE-S', priceMinor: 2450, stock: 7, imageKey: null },
					{ optionValues: ['M'], sku: 'TEE-M', priceMinor: 2600, stock: 0, imageKey: null },
				],
			},
		})
		const removed = await submit({ ...sizes, 'variant.1.id': 'v1', 'variant.1.remove': 'yes' })
		expect(removed.ok && removed.data.variants.map((variant) => variant.sku)).toEqual(['TEE-S'])
	})

	it('refuses variants a shopper could not tell apart, values missing for an option, bad SKUs, more variants without an option, and gaps in the names', async () => {
		expect(await fieldError({ ...sizes, 'variant.1.option1': 's' }, 'variant.1.option1')).toMatch(/Another variant is already s\./)
		expect(await fieldError({ ...sizes, 'variant.1.option1': '' }, 'variant.1.option1')).toMatch(/value for Size/)
		expect(await fieldError({ ...sizes, 'variant.1.sku': 'tee-s' }, 'variant.1.sku')).toMatch(/already has this SKU/)
		expect(await fieldError({ ...sizes, 'variant.1.sku': 'has space' }, 'variant.1.sku')).toMatch(/letters, digits/)
		expect(await fieldError({ ...sizes, option1Name: '' }, 'variants')).toMatch(/Name an option/)
		expect(await fieldError({ ...sizes, option2Name: 'Colour', option1Name: '' }, 'optionNames')).toMatch(/from the first one on/)
		expect(await fieldError({ ...sizes, option2Name: 'size' }, 'optionNames')).toMatch(/different name/)
		expect(await fieldError({ ...valid, 'variant.0.price': '', 'variant.0.stock': '' }, 'variants')).toMatch(/at least one variant/)
	})

	it('refuses a row past the last one offered and fields it does not know, as a form error, not silently [R4]', async () => {
		expect(await submit({ ...valid, [`variant.${MAX_VARIANTS}.price`]: '1' })).toMatchObject({
			ok: false,
			formError: expect.stringMatching(/Unexpected field/),
		})
		expect(await submit({ ...valid, 'variant.0.storeId': 'another-store' })).toMatchObject({ ok: false, formError: expect.stringMatching(/Unexpected field/) })
		expect(await submit({ ...valid, 'variant.0.id': '../../etc' })).toMatchObject({ ok: false })
	})
})
