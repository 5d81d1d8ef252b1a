import { describe, expect, it } from 'vitest'
import { MAX_SLUG, slugFromTitle } from './slug'

const SLUG_RULE = /^[a-z0-9]+(-[a-z0-9]+)*$/

describe('a slug from a title', () => {
	it('lowers, drops accents and turns everything else into single dashes [R130]', () => {
		expect(slugFromTitle('Crème Brûlée Mug (XL)')).toBe('creme-brulee-mug-xl')
		expect(slugFromTitle('  --Enamel   camp mug!! ')).toBe('enamel-camp-mug')
		expect(slugFromTitle('=HYPERLINK("x")')).toBe('hyperlink-x')
		expect(slugFromTitle('日本')).toBe('')
	})

	it('always meets the product form’s rule and length, cut at a dash [R130]', () => {
		const long = slugFromTitle('word '.repeat(40))
		expect(long.length).toBeLessThanOrEqual(MAX_SLUG)
		expect(long).toMatch(SLUG_RULE)
		expect(slugFromTitle('a'.repeat(200))).toHaveLength(MAX_SLUG)
		for (const title of ['Tote', 'A–Z of tea', 'ÆØÅ', '100% wool', 'x-'.repeat(60)]) {
			const slug = slugFromTitle(title)
			if (slug !== '') expect(slug, title).toMatch(SLUG_RULE)
		}
	})
})
