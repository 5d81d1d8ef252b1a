import AxeBuilder from '@axe-core/playwright'
import { type Page, expect } from '@playwright/test'

export const VIEWPORTS = [
	{ name: 'desktop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 },
] as const

/**
 * axe-core in the page itself (axe.run), not its default of a partial run per frame finished in a
 * blank page opened for each check: the store's pages have no frames, so both check the same
 * nodes with the same rules, and a tab opened and closed per check was most of the spec's time.
 */
function axe(page: Page) {
	return new AxeBuilder({ page }).setLegacyMode()
}

/**
 * Each page loaded once and checked at each size (the window is resized in between; no page
 * renders by size in script, so the CSS decides, as it would on a page loaded at that size): the
 * serious and critical violations, named by size, page, rule and element, and what `atEachSize`
 * (run after each check) finds wrong with the page at that size.
 */
export async function violations(page: Page, paths: readonly string[], atEachSize?: (path: string, viewport: (typeof VIEWPORTS)[number]) => Promise<string[]>) {
	const found: string[] = []
	for (const path of paths) {
		await page.setViewportSize(VIEWPORTS[0])
		await page.goto(path)
		for (const viewport of VIEWPORTS) {
			await page.setViewportSize(viewport)
			const { violations, passes } = await axe(page).analyze()
			expect(passes.length, `axe checked ${path} at ${viewport.name} size`).toBeGreaterThan(10)
			for (const violation of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
				found.push(
					`${viewport.name} ${path}: ${violation.id} (${violation.impact}) — ${violation.help}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
				)
			}
			found.push(...((await atEachSize?.(path, viewport)) ?? []).map((problem) => `${viewport.name} ${path}: ${problem}`))
		}
	}
	return found
}
