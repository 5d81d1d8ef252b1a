import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { elements } from '../eslint.config.js'
import { END, START, layersSection, withSection } from './lib/architecture'

describe('the architecture page and the lint config', () => {
	const page = readFileSync('docs/architecture.md', 'utf8')

	it('say the same: the page’s layer section is the one the config writes', () => {
		expect(page).toContain(START)
		expect(withSection(page, layersSection())).toBe(page)
	})

	it('name every layer lint knows, and only those', () => {
		const section = page.slice(page.indexOf(START), page.indexOf(END))
		const named = [...section.matchAll(/^\| ([\w-]+) \|/gm)].map((match) => match[1]).filter((name) => name !== 'Layer')
		expect(named).toEqual(elements.map((element) => element.type))
	})

	it('fails for a page that drifted', () => {
		const drifted = page.replace(/^\| door \|.*$/m, '| door | `app/repositories.server.ts` | the door | everything |')
		expect(withSection(drifted, layersSection())).not.toBe(drifted)
	})
})
