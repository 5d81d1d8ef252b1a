import { z } from 'zod'
import { fields, formSchema } from '../../security/form.server'
import { isCountryCode } from '../../rules/countries'
import { CHECKOUT_TEXT_FIELDS, type CheckoutTextField, type CheckoutValues } from './checkout-fields'

const text = (label: string, max: number) => z.string().trim().min(1, `Enter ${label}`).max(max, `Use at most ${max} characters`)

/** The rule of each typed field (a field of the list without one does not compile). */
const textRules: Record<Exclude<CheckoutTextField, 'discountCode'>, z.ZodType<string, string>> = {
	email: fields.email,
	name: fields.name,
	addressLine1: text('a street address', 120),
	addressLine2: z.string().trim().max(120, 'Use at most 120 characters'),
	city: text('a city', 80),
	postalCode: text('a postal code', 16).regex(/^[A-Za-z0-9 -]+$/, 'Enter a valid postal code'),
}

export const checkoutForm = formSchema({
	...textRules,
	// Optional, and may be left out of the form; applied or refused (with why) on the server [R132, R133].
	discountCode: z
		.string()
		.trim()
		.regex(/^([A-Za-z0-9_-]{1,40})?$/, 'That discount code is not valid. Check it, or leave the field empty.')
		.optional(),
	// Chosen from the lists the page offers, or set by the page.
	country: z.string().trim().toUpperCase().refine(isCountryCode, 'Choose your country from the list'),
	shippingRate: z
		.string()
		.regex(/^[A-Za-z0-9_-]{1,40}$/, 'Choose one of the shipping options offered')
		.optional(),
	payment: z.string().regex(/^[a-z0-9-]{1,40}$/, 'Choose a payment method'),
	idempotencyKey: z.uuid('Reload the checkout page and try again'),
	// The no-JavaScript form's "Show shipping options" button: echo the form, place nothing.
	intent: z.enum(['place', 'rates']).optional(),
})

/**
 * A submitted form's values, echoed into the form that comes back [R127]: only the form's own
 * fields, each a bounded string (never an unknown field, the idempotency key or the honeypot).
 */
export function checkoutValues(form: URLSearchParams): CheckoutValues {
	const value = (name: string, max: number) => (form.get(name) ?? '').slice(0, max)
	const typed = Object.fromEntries(CHECKOUT_TEXT_FIELDS.map((field) => [field.name, value(field.name, field.max + 100)])) as Record<CheckoutTextField, string>
	return { ...typed, country: value('country', 2).toUpperCase(), shippingRate: value('shippingRate', 40), payment: value('payment', 40) }
}
