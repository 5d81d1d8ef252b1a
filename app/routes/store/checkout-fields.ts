/**
 * The checkout's typed fields, in the order the form shows them: the one list the form, its
 * server rules (checkout-form.server.ts, which must name a rule for each) and the echo of a
 * refused submit are built from, so a new field is an entry here and its rule there.
 */
export const CHECKOUT_TEXT_FIELDS = [
	{ name: 'email', section: 'contact', label: 'Email', type: 'email', autoComplete: 'email', required: true, max: 254 },
	{ name: 'name', section: 'address', label: 'Full name', autoComplete: 'name', required: true, max: 80 },
	{ name: 'addressLine1', section: 'address', label: 'Street address', autoComplete: 'address-line1', required: true, max: 120 },
	{ name: 'addressLine2', section: 'address', label: 'Apartment, suite (optional)', autoComplete: 'address-line2', required: false, max: 120 },
	{ name: 'city', section: 'address', label: 'City', autoComplete: 'address-level2', required: true, max: 80 },
	{ name: 'postalCode', section: 'address', label: 'Postal code', autoComplete: 'postal-code', required: true, max: 16 },
	{ name: 'discountCode', section: 'discount', label: 'Discount code (optional)', autoComplete: 'off', required: false, max: 40 },
] as const satisfies ReadonlyArray<{
	name: string
	section: 'contact' | 'address' | 'discount'
	label: string
	type?: string
	autoComplete: string
	required: boolean
	/** The longest value the rule allows; a refused submit echoes a little more, so the error still shows. */
	max: number
}>

export type CheckoutTextField = (typeof CHECKOUT_TEXT_FIELDS)[number]['name']

/** What the shopper typed and chose, as the form shows it again after a refusal. */
export type CheckoutValues = Record<CheckoutTextField | 'country' | 'shippingRate' | 'payment', string>
