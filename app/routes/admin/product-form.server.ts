import { z } from 'zod'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../../cart/limits'
import { PRODUCT_STATUSES } from '../../catalog/catalog.server'
import { formSchema, parseForm } from '../../security/form.server'
import { OBJECT_KEY } from '../../uploads/storage/storage'

/**
 * "24", "24.5" or "24.50" in the Store's major unit, to integer minor units (2 decimals), at
 * most MAX_UNIT_PRICE_MINOR (docs/decisions/030): both engines' columns hold every total.
 */
const price = z
	.string()
	.trim()
	.regex(/^\d{1,9}(\.\d{1,2})?$/, 'Enter a price like 24 or 24.50')
	.transform((value) => {
		const [whole, fraction = ''] = value.split('.')
		return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
	})
	.refine((minor) => minor <= MAX_UNIT_PRICE_MINOR, LIMIT_ERRORS.price)

export const productForm = formSchema({
	title: z.string().trim().min(1, 'Enter a title').max(120, 'Use at most 120 characters'),
	slug: z
		.string()
		.trim()
		.toLowerCase()
		.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Use lower-case letters, digits and dashes')
		.max(80, 'Use at most 80 characters'),
	description: z.string().trim().max(2000, 'Use at most 2,000 characters'),
	price,
	stock: z
		.string()
		.trim()
		.regex(/^\d{1,9}$/, 'Enter a whole number, like 12')
		.transform(Number)
		.refine((stock) => stock <= MAX_STOCK, LIMIT_ERRORS.stock),
	status: z.enum(PRODUCT_STATUSES, 'Choose a status'),
	/** Optional: an upload to make the main image (Store Admin's page adds images in its gallery instead). */
	imageKey: z.union([z.literal(''), z.string().regex(OBJECT_KEY, 'Choose an uploaded image')]).optional(),
})

export async function readProductForm(request: Request) {
	const form = await parseForm(request, productForm)
	if (!form.ok) return form
	const { price: priceMinor, imageKey, ...rest } = form.data
	return { ok: true as const, data: { ...rest, priceMinor, imageKey: imageKey || null } }
}
