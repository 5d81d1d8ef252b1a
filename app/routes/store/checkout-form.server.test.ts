import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../../errors.server'
import { REFUSAL_MESSAGES } from '../../discounts/pricing'
import { classify } from '../../security/rate-limit/classes'
import { rateLimitContext, rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { validateFields } from '../../security/form.server'
import { CHECKOUT_TEXT_FIELDS } from './checkout-fields'
import { checkoutForm, checkoutValues, keptDiscount, sentOf, unplacedAnswer } from './checkout-form.server'

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

const post = (fields: Record<string, string> | string) =>
	new Request('http://store.test/checkout', {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
	})

const typed = { ...filled, country: 'US', shippingRate: 'rate_1', discountCode: 'spring10', addressLine2: 'Flat 2' }
const applied = { code: 'SPRING10', kind: 'percentage', goodsMinor: 250, freeShipping: false }

describe('a refused checkout keeps what was typed', () => {
	it('reads the typing and the button from the body before anything else, so a 429 gives both back with Retry-After [R127]', async () => {
		const { values, intent } = await sentOf(post({ ...typed, intent: 'place' }))
		expect(intent).toBe('place')
		expect(values).toMatchObject({ email: 'Ada@Example.com', addressLine2: 'Flat 2', country: 'US', shippingRate: 'rate_1', discountCode: 'spring10' })
		const context = new RouterContextProvider()
		context.set(rateLimitContext, { success: false, limit: 5, remaining: 0, resetMs: Date.now() + 30_000, source: 'memory' })
		const refused = rateLimitedForm(context, { values, discount: null })
		expect(refused?.init).toMatchObject({ status: 429, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } })
		expect(refused?.data).toMatchObject({ ok: false, formError: expect.stringContaining('Too many attempts'), values })
		context.set(rateLimitContext, 'unavailable')
		expect(rateLimitedForm(context, { values })?.data).toMatchObject({ values })
	})

	it('echoes nothing of a body that is not the form, and leaves its answer to the form’s own parsing [R127]', async () => {
		const huge = await sentOf(post(`email=${'a'.repeat(20_000)}`))
		expect(Object.values(huge.values).every((value) => value === '')).toBe(true)
		expect((await sentOf(post({ ...typed, intent: 'delete' }))).intent).toBeUndefined()
	})

	it('counts every checkout POST, a code’s preview too, in the Sensitive class [R133]', () => {
		expect(classify('routes/store/checkout', 'POST')).toMatchObject({ routeClass: 'sensitive', form: true })
	})
})

describe('a discount code applied before placing', () => {
	const refusing = (reason: keyof typeof REFUSAL_MESSAGES) => async () => {
		throw new DomainError(409, REFUSAL_MESSAGES[reason], 'discountCode')
	}
	const form = (fields: Record<string, string>) => validateFields(Object.entries(fields), checkoutForm)
	/** "Apply" pressed with every field typed and the code `spring10`, priced by `preview`. */
	const apply = (preview: Parameters<typeof unplacedAnswer>[0]['preview']) =>
		unplacedAnswer({
			form: form({ ...filled, discountCode: 'spring10', intent: 'apply' }),
			intent: 'apply',
			values: checkoutValues(new URLSearchParams(typed)),
			preview,
		})

	it('answers "Apply" with the server’s discount and every typed value, placing nothing [R132]', async () => {
		const sent: Array<{ typed: string; email: string }> = []
		const answer = await apply(async (input) => (sent.push(input), applied))
		expect(answer.init?.status).toBe(200)
		expect(answer.data).toMatchObject({ fieldErrors: {}, discount: applied, values: { discountCode: 'spring10', addressLine2: 'Flat 2' } })
		expect(sent).toEqual([{ typed: 'spring10', email: 'Ada@Example.com' }])
	})

	it('says beside the field why a code does not apply, with everything typed kept (409) [R133]', async () => {
		for (const reason of ['unknown', 'expired', 'below_minimum', 'used_up', 'already_used'] as const) {
			const answer = await apply(refusing(reason))
			expect(answer.init?.status, reason).toBe(409)
			expect(answer.data, reason).toMatchObject({
				fieldErrors: { discountCode: REFUSAL_MESSAGES[reason] },
				discount: null,
				values: { email: 'Ada@Example.com' },
			})
		}
	})

	it('keeps the code’s discount beside field errors, and adds a refused code’s reason to them (400) [R127, R133]', async () => {
		const values = checkoutValues(new URLSearchParams({ ...typed, city: '' }))
		const withCode = await unplacedAnswer({
			form: form({ ...filled, city: '', discountCode: 'spring10' }),
			intent: 'place',
			values,
			preview: async () => applied,
		})
		expect(withCode.init?.status).toBe(400)
		expect(withCode.data).toMatchObject({ fieldErrors: { city: 'Enter a city' }, discount: applied, values: { city: '', discountCode: 'spring10' } })
		const refused = await unplacedAnswer({ form: form({ ...filled, city: '' }), intent: undefined, values, preview: refusing('expired') })
		expect(refused.data.fieldErrors).toEqual({ city: 'Enter a city', discountCode: REFUSAL_MESSAGES.expired })
	})

	it('refuses a form that is not the store’s own whatever its button, and previews nothing without a code (400) [R127]', async () => {
		const forged = await unplacedAnswer({
			form: form({ ...filled, intent: 'apply', userId: 'someone' }),
			intent: 'apply',
			values: checkoutValues(new URLSearchParams(filled)),
			preview: async () => {
				throw new Error('no code was typed: nothing to preview')
			},
		})
		expect(forged.init?.status).toBe(400)
		expect(forged.data).toMatchObject({ formError: 'Unexpected field: userId', discount: null })
	})

	it('keeps the discount in the summary after another refusal, and drops it when the code was the refusal [R127, R132]', async () => {
		const values = checkoutValues(new URLSearchParams(typed))
		expect(await keptDiscount(new DomainError(409, 'Not enough left', undefined), values, async () => applied)).toEqual(applied)
		expect(await keptDiscount(new DomainError(409, REFUSAL_MESSAGES.used_up, 'discountCode'), values, async () => applied)).toBeNull()
	})

	it('shows no discount, and no error beside the code, for a cart emptied meanwhile [R127]', async () => {
		const answer = await apply(async () => {
			throw new DomainError(409, 'Your cart is empty.')
		})
		expect(answer.init?.status).toBe(200)
		expect(answer.data).toMatchObject({ fieldErrors: {}, discount: null })
	})
})
