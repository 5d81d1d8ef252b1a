import { z } from 'zod'
import { DomainError } from '../../errors.server'
import type { DiscountPreview } from '../../orders/checkout.server'
import { data } from 'react-router'
import { type FieldErrors, type FormResult, fields, formSchema, MAX_FORM_BYTES, readBodyWithin } from '../../security/form.server'
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
	// "Show shipping options" (the no-JavaScript form) and "Apply" (the discount code): answer the
	// form again, priced, and place nothing.
	intent: z.enum(['place', 'rates', 'apply']).optional(),
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

/** How the server prices a typed code against the viewer's cart (the checkout repository's preview). */
type Preview = (input: { typed: string; email: string }) => Promise<DiscountPreview>

const INTENTS = ['place', 'rates', 'apply'] as const
type Intent = (typeof INTENTS)[number]

/**
 * What a submit typed and which button sent it, read from a copy of its body before anything
 * else is done with it, so every answer that is not an Order gives the typing back, a 429 too
 * [R127]. Read within the form's bound; a body that is not this form (too large, not readable)
 * echoes nothing, and the form's own parsing answers it.
 */
export async function sentOf(request: Request): Promise<{ values: CheckoutValues; intent: Intent | undefined }> {
	let sent = new URLSearchParams()
	try {
		sent = new URLSearchParams(Buffer.from(await readBodyWithin(request, MAX_FORM_BYTES)).toString('utf8'))
	} catch {
		// Nothing to echo; parseForm answers the body with its 413 or 415.
	}
	const intent = INTENTS.find((name) => name === sent.get('intent'))
	return { values: checkoutValues(sent), intent }
}

/**
 * The answer to a submit that places nothing: a form the rules refused (400, each error beside
 * its field), or "Show shipping options" and "Apply", which answer the form priced (200; 409
 * when the code applied does not apply). Its summary shows the code's discount as the server
 * works it out; a form that is not this store's own (an unknown field, the honeypot) is a 400
 * whatever its button [R127, R133].
 */
export async function unplacedAnswer({
	form,
	intent,
	values,
	preview,
}: {
	form: FormResult<unknown>
	intent: Intent | undefined
	values: CheckoutValues
	preview: Preview
}) {
	const { discount, refusal } = await discountShown(values, preview)
	const formError = form.ok ? undefined : form.formError
	const pricing = formError === undefined && (intent === 'rates' || intent === 'apply')
	const fieldErrors: FieldErrors = pricing || form.ok ? {} : { ...form.fieldErrors }
	if (refusal && intent !== 'rates') fieldErrors.discountCode ??= refusal
	const status = !pricing ? 400 : refusal && intent === 'apply' ? 409 : 200
	return data({ ok: false as const, fieldErrors, formError, values, discount }, { status })
}

/**
 * The discount an answer that places nothing shows in its summary [R132, R133]: the code typed,
 * as the server prices it against the cart now, or why it does not apply (to show beside the
 * field). Nothing when no code was typed, or when the cart cannot be priced (emptied meanwhile:
 * the page itself then says so).
 */
async function discountShown(values: CheckoutValues, preview: Preview): Promise<{ discount: DiscountPreview | null; refusal?: string }> {
	if (!values.discountCode.trim()) return { discount: null }
	try {
		return { discount: await preview({ typed: values.discountCode, email: values.email }) }
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return error.field === 'discountCode' ? { discount: null, refusal: error.message } : { discount: null }
	}
}

/**
 * The discount a refused placing keeps in its summary: the code's, priced again, unless the
 * code itself was the refusal (then none, and the reason beside the field).
 */
export async function keptDiscount(error: unknown, values: CheckoutValues, preview: Preview): Promise<DiscountPreview | null> {
	if (!(error instanceof DomainError) || error.field === 'discountCode') return null
	return (await discountShown(values, preview)).discount
}
