import { describe, expect, it } from 'vitest'
import { validateFields } from '../../security/form.server'
import { CHECKOUT_TEXT_FIELDS } from './checkout-fields'
import { checkoutForm, checkoutValues } from './checkout-form.server'

const filled = {
	email: 'Ada@Example.com',
	name: 'Ada Buyer',
	addressLine1: '1 Market Street',
	addressLine2: '',
	city: 'Springfield',
	postalCode: '12345',
	country: 'us',
	payment: 'offline',
	idempotencyKey: '5b0a3c1e-8f9d-4c2b-9a7e-1d2c3b4a5f60',
}

describe('the checkout form', () => {
	it('echoes only its own fields, each cut to a bound, after a refusal [R127]', () => {
		const sent = new URLSearchParams({
			...filled,
			addressLine1: 'x'.repeat(10_000),
			storeId: 'another-store',
			idempotencyKey: 'not-echoed',
			shippingRate: 'r'.repeat(500),
			website: 'bot text',
		})
		const values = checkoutValues(sent)
		expect(Object.keys(values).sort()).toEqual([...CHECKOUT_TEXT_FIELDS.map((f) => f.name), 'country', 'payment', 'shippingRate'].sort())
		expect(values.addressLine1.length).toBeLessThanOrEqual(220)
		expect(values.shippingRate).toHaveLength(40)
		expect(values.country).toBe('US')
		expect(JSON.stringify(values)).not.toContain('another-store')
		expect(JSON.stringify(values)).not.toContain('not-echoed')
	})

	it('answers missing fields with empty strings, never undefined [R127]', () => {
		const values = checkoutValues(new URLSearchParams())
		expect(Object.values(values).every((value) => value === '')).toBe(true)
	})

	it('takes a country only as a known ISO code, and every typed field from the one list [R127]', () => {
		const ok = validateFields(Object.entries(filled), checkoutForm)
		expect(ok).toMatchObject({ ok: true, data: { country: 'US', email: 'ada@example.com' } })
		for (const country of ['XX', 'EU', 'Germany', '', 'D']) {
			const refused = validateFields(Object.entries({ ...filled, country }), checkoutForm)
			expect(refused, country).toMatchObject({ ok: false, fieldErrors: { country: 'Choose your country from the list' } })
		}
		for (const field of CHECKOUT_TEXT_FIELDS.filter((f) => f.required)) {
			const refused = validateFields(Object.entries({ ...filled, [field.name]: '' }), checkoutForm)
			expect(refused.ok ? null : refused.fieldErrors[field.name], field.name).toBeTruthy()
		}
		const forged = validateFields(Object.entries({ ...filled, userId: 'someone' }), checkoutForm)
		expect(forged).toMatchObject({ ok: false, formError: 'Unexpected field: userId' })
	})
})
