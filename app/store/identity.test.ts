import { describe, expect, it } from 'vitest'
import { DEFAULT_ACCENT, MIN_CONTRAST, checkAccent, contrastRatio, isPolicyKind, normaliseAccent, policyParagraphs, themeCss } from './identity'

describe('the accent colour [R120]', () => {
	it('measures contrast as WCAG does', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
		expect(contrastRatio('#ffffff', '#ffffff')).toBe(1)
		expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
		expect(contrastRatio('#2747c9', '#f5f7fb')).toBe(contrastRatio('#f5f7fb', '#2747c9'))
	})

	it('accepts the default and dark colours, in lower case', () => {
		expect(checkAccent(DEFAULT_ACCENT)).toEqual({ ok: true, colour: DEFAULT_ACCENT })
		expect(checkAccent(' #0B6E4F ')).toEqual({ ok: true, colour: '#0b6e4f' })
		expect(checkAccent('#000000')).toEqual({ ok: true, colour: '#000000' })
	})

	it('refuses colours too light to read, saying by how much', () => {
		for (const light of ['#ffffff', '#ffff00', '#cccccc', '#7aa0ff', '#888888']) {
			const verdict = checkAccent(light)
			expect(verdict.ok, light).toBe(false)
			if (!verdict.ok) expect(verdict.message).toMatch(new RegExp(`at least ${MIN_CONTRAST}:1`))
		}
	})

	it('takes nothing but # and six hex digits: no CSS can ride along', () => {
		for (const bad of ['red', '#fff', '#12345g', '#2747c9;}body{display:none', 'rgb(0,0,0)', '', '#2747c9\n}', 'url(x)', '#2747c9aa']) {
			expect(normaliseAccent(bad), JSON.stringify(bad)).toBeNull()
			expect(checkAccent(bad).ok).toBe(false)
		}
	})

	it('serves one custom property', () => {
		expect(themeCss('#0b6e4f')).toBe(':root{--accent:#0b6e4f}\n')
	})
})

describe('policy pages [R120]', () => {
	it('knows shipping, returns and privacy, and nothing else', () => {
		expect(['shipping', 'returns', 'privacy'].every(isPolicyKind)).toBe(true)
		for (const other of ['terms', '../shipping', 'Shipping', '', 'constructor', '__proto__']) expect(isPolicyKind(other), other).toBe(false)
	})

	it('splits text into paragraphs at blank lines and keeps single line breaks', () => {
		expect(policyParagraphs('We ship in 2 days.\r\nTracked.\r\n\r\n\r\nReturns: 30 days.')).toEqual([['We ship in 2 days.', 'Tracked.'], ['Returns: 30 days.']])
		expect(policyParagraphs('\n\n  \n')).toEqual([])
		expect(policyParagraphs('<script>alert(1)</script>')).toEqual([['<script>alert(1)</script>']])
	})
})
