import { z } from 'zod'
import { LIMIT_ERRORS, MAX_STOCK, MAX_UNIT_PRICE_MINOR } from '../../rules/limits'
import { PRODUCT_STATUSES } from '../../catalog/catalog.server'
import { MAX_OPTIONS, MAX_VARIANTS, variantProblems, type VariantInput } from '../../rules/variants'
import { formFailure, formSchema, parseForm, recordId, validateFields, type FormResult } from '../../security/form.server'
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

const stock = z
	.string()
	.trim()
	.regex(/^\d{1,9}$/, 'Enter a whole number of at least 0, like 12')
	.transform(Number)
	.refine((count) => count <= MAX_STOCK, LIMIT_ERRORS.stock)

const text = (max: number) => z.string().max(max, `Use at most ${max} characters`).optional()
const imageKey = z.union([z.literal(''), z.string().regex(OBJECT_KEY, 'Choose an uploaded image')]).optional()

/** The fields of variant row `index`: `variant.<index>.<field>` (a public contract of the form). */
type RowField = 'id' | 'option1' | 'option2' | 'option3' | 'sku' | 'price' | 'stock' | 'imageKey' | 'remove'
export const variantField = (index: number, field: RowField) => `variant.${index}.${field}`

const rowShape = Object.fromEntries(
	Array.from({ length: MAX_VARIANTS }, (_, index) => [
		[variantField(index, 'id'), recordId.optional()],
		...['option1', 'option2', 'option3'].map((field) => [variantField(index, field as 'option1'), text(200)]),
		[variantField(index, 'sku'), text(200)],
		[variantField(index, 'price'), text(40)],
		[variantField(index, 'stock'), text(40)],
		[variantField(index, 'imageKey'), imageKey],
		[variantField(index, 'remove'), z.literal('yes').optional()],
	]).flat(),
) as Record<string, z.ZodOptional<z.ZodString>>

export const productForm = formSchema({
	title: z.string().trim().min(1, 'Enter a title').max(120, 'Use at most 120 characters'),
	slug: z
		.string()
		.trim()
		.toLowerCase()
		.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Use lower-case letters, digits and dashes')
		.max(80, 'Use at most 80 characters'),
	description: z.string().trim().max(2000, 'Use at most 2,000 characters'),
	status: z.enum(PRODUCT_STATUSES, 'Choose a status'),
	/** Optional: an upload to make the main image (Store Admin's page adds images in its gallery instead). */
	imageKey,
	option1Name: text(200),
	option2Name: text(200),
	option3Name: text(200),
	...rowShape,
})

/** Up to MAX_VARIANTS rows of about 150 bytes each, on top of the product's own fields. */
const MAX_PRODUCT_FORM_BYTES = 64 * 1024

type Fields = Record<string, string | undefined>

/**
 * One variant row, or null for a row left blank (the form offers empty rows to fill in) or
 * ticked for removal. Field errors are added to `errors` under the row's field names.
 */
function readRow(fields: Fields, index: number, options: number, errors: Record<string, string>): VariantInput | null {
	const value = (field: RowField) => fields[variantField(index, field)]?.trim() ?? ''
	const optionValues = (['option1', 'option2', 'option3'] as const).slice(0, options).map(value)
	const id = value('id') || undefined
	const blank = !id && [...optionValues, value('sku'), value('price'), value('stock')].every((entry) => entry === '')
	if (blank || value('remove') === 'yes') return null
	const parsedPrice = price.safeParse(value('price'))
	const parsedStock = stock.safeParse(value('stock'))
	if (!parsedPrice.success) errors[variantField(index, 'price')] = parsedPrice.error.issues[0]!.message
	if (!parsedStock.success) errors[variantField(index, 'stock')] = parsedStock.error.issues[0]!.message
	return {
		...(id ? { id } : {}),
		optionValues,
		sku: value('sku') || null,
		priceMinor: parsedPrice.data ?? 0,
		stock: parsedStock.data ?? 0,
		imageKey: value('imageKey') || null,
	}
}

/**
 * The product form [R121]: the product's fields, up to MAX_OPTIONS option names, and one row per
 * variant. Rows keep the form's numbering for their errors, so each message shows beside its row.
 */
export async function readProductForm(request: Request) {
	return checkProductForm(await parseForm(request, productForm, { maxBytes: MAX_PRODUCT_FORM_BYTES }))
}

/** The same form's fields as the text parts of a multipart form (the new product's, which also carries images). */
export function readProductFields(entries: Iterable<[string, string]>) {
	return checkProductForm(validateFields(entries, productForm))
}

/** The most text fields the product form has: its own, the option names and every variant row's. */
export const PRODUCT_FORM_FIELDS = Object.keys(productForm.shape).length + 1

function checkProductForm(form: FormResult<z.infer<typeof productForm>>) {
	if (!form.ok) return form
	const fields = form.data as Fields
	const { title, slug, description, status } = form.data
	const optionNames = (['option1Name', 'option2Name', 'option3Name'] as const).map((name) => fields[name]?.trim() ?? '')
	// Names are filled from the first field on: a gap ("Size", "", "Colour") is a mistake to point at.
	const named = optionNames.findLastIndex((name) => name !== '') + 1
	const errors: Record<string, string> = {}
	if (optionNames.slice(0, named).some((name) => name === '')) errors.optionNames = 'Fill in the option names from the first one on.'
	const rows: Array<{ index: number; variant: VariantInput }> = []
	for (let index = 0; index < MAX_VARIANTS; index++) {
		const variant = readRow(fields, index, Math.min(named, MAX_OPTIONS), errors)
		if (variant) rows.push({ index, variant })
	}
	const variants = rows.map((row) => row.variant)
	// The shared rules number variants by their place in the list; the form numbers rows.
	for (const [field, message] of Object.entries(variantProblems(optionNames.slice(0, named), variants))) {
		const row = /^variant\.(\d+)\.(.+)$/.exec(field)
		const key = row ? variantField(rows[Number(row[1])]!.index, row[2] === 'options' ? 'option1' : (row[2] as 'sku')) : field
		errors[key] ??= message
	}
	if (Object.keys(errors).length > 0) {
		const first = Object.values(errors)[0]
		return formFailure(errors, `Check the product’s variants: ${first}`)
	}
	return {
		ok: true as const,
		data: { title, slug, description, status, imageKey: form.data.imageKey || null, optionNames: optionNames.slice(0, named), variants },
	}
}
