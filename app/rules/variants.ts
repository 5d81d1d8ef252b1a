/**
 * What a Product sells: its variants [R121]. A Product has up to MAX_OPTIONS options (Size,
 * Colour…) and at least one variant; each variant has one value per option, its own SKU, price
 * and stock. A Product without options is sold as exactly one variant, whose title is "".
 * These are the rules the admin form and the repository share; both engines store the names and
 * values as JSON text.
 */

export const MAX_OPTIONS = 3
export const MAX_VARIANTS = 50
export const OPTION_NAME_MAX = 40
export const OPTION_VALUE_MAX = 40
export const SKU_MAX = 64
/** Letters, digits and . _ - / (what SKUs on labels and in spreadsheets use), no spaces. */
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/

export type VariantInput = {
	/** An existing variant of the same Product; absent for a new one. */
	id?: string
	optionValues: string[]
	sku: string | null
	priceMinor: number
	stock: number
	/** An image of the Product's gallery, or null. */
	imageKey: string | null
}

/** "Linen shirt (M / Blue)", or the title alone for a product sold as one variant. */
export const lineName = (productTitle: string, variantTitle: string) => (variantTitle ? `${productTitle} (${variantTitle})` : productTitle)

/** "M / Blue"; "" for a Product's only variant. */
export const variantTitle = (optionValues: readonly string[]) => optionValues.join(' / ')

/** A variant as its row stores it: values as JSON, the title made from them, its place in the list. */
export function variantRow<V extends { optionValues: readonly string[] }>({ optionValues, ...variant }: V, position: number) {
	return { ...variant, optionValues: JSON.stringify(optionValues), title: variantTitle(optionValues), position }
}

/** The JSON text a names or values column holds, read back; anything unreadable is no options. */
export function readOptionList(text: string | null | undefined): string[] {
	try {
		const parsed: unknown = JSON.parse(text ?? '[]')
		return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : []
	} catch {
		return []
	}
}

/** A Product's "from" price: the lowest of its variants'. */
export const lowestPrice = (variants: ReadonlyArray<{ priceMinor: number }>) =>
	variants.reduce((lowest, variant) => Math.min(lowest, variant.priceMinor), Number.POSITIVE_INFINITY)

/** What a card says of stock: everything of every variant. */
export const totalStock = (variants: ReadonlyArray<{ stock: number }>) => variants.reduce((sum, variant) => sum + Math.max(0, variant.stock), 0)

/**
 * The problems with a set of options and variants, keyed by form field (`optionNames`,
 * `variants`, `variant.N.options`, `variant.N.sku`), or an empty object when it may be saved.
 * Prices and stock are checked against their limits by the repository and the form.
 */
export function variantProblems(optionNames: readonly string[], variants: readonly VariantInput[]): Record<string, string> {
	const problems: Record<string, string> = {}
	if (optionNames.length > MAX_OPTIONS) problems.optionNames = `A product has at most ${MAX_OPTIONS} options.`
	const lowerNames = optionNames.map((name) => name.toLowerCase())
	if (optionNames.some((name) => name.length === 0 || name.length > OPTION_NAME_MAX))
		problems.optionNames = `Name each option in 1 to ${OPTION_NAME_MAX} characters.`
	else if (new Set(lowerNames).size !== lowerNames.length) problems.optionNames = 'Give each option a different name.'

	if (variants.length === 0) problems.variants = 'Add at least one variant, with its price and stock.'
	if (variants.length > MAX_VARIANTS) problems.variants = `A product has at most ${MAX_VARIANTS} variants.`
	if (optionNames.length === 0 && variants.length > 1) problems.variants = 'Name an option (like Size) to sell this product in more than one variant.'

	const combinations = new Set<string>()
	const skus = new Set<string>()
	for (const [index, variant] of variants.entries()) {
		const values = variant.optionValues
		if (values.length !== optionNames.length || values.some((value) => value.length === 0 || value.length > OPTION_VALUE_MAX)) {
			problems[`variant.${index}.options`] = optionNames.length
				? `Give variant ${index + 1} a value for ${optionNames.join(' and ')} (at most ${OPTION_VALUE_MAX} characters each).`
				: `Variant ${index + 1} has option values but the product names no options.`
			continue
		}
		const combination = JSON.stringify(values.map((value) => value.toLowerCase()))
		if (combinations.has(combination)) problems[`variant.${index}.options`] = `Another variant is already ${variantTitle(values)}.`
		combinations.add(combination)
		if (variant.sku !== null) {
			if (variant.sku.length > SKU_MAX || !SKU_PATTERN.test(variant.sku))
				problems[`variant.${index}.sku`] = `Use letters, digits and . _ - / in a SKU of at most ${SKU_MAX} characters.`
			else if (skus.has(variant.sku.toLowerCase())) problems[`variant.${index}.sku`] = 'Another variant already has this SKU.'
			skus.add(variant.sku.toLowerCase())
		}
	}
	return problems
}
