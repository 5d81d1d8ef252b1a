/** The longest slug a Product may have (the product form's rule). */
export const MAX_SLUG = 80

/**
 * A title as a Product's slug: "Crème Brûlée Mug (XL)" → "creme-brulee-mug-xl". Letters lose
 * their accents, anything else becomes one dash, and the result is cut to MAX_SLUG at a dash.
 * What the product form suggests while a title is typed; the form's rule still decides.
 */
export function slugFromTitle(title: string) {
	const slug = title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
	if (slug.length <= MAX_SLUG) return slug
	const cut = slug.slice(0, MAX_SLUG + 1)
	const lastDash = cut.lastIndexOf('-')
	return (lastDash > 0 ? cut.slice(0, lastDash) : slug.slice(0, MAX_SLUG)).replace(/-+$/, '')
}
