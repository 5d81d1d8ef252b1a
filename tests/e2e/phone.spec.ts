/**
 * The store on a phone (390 × 844, the width of most current phones): nothing is wider than the
 * screen, and a cart of three lines shows every line's total and its Remove button on screen.
 */
import { expect, test } from './support/fixtures.ts'

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

const overflow = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

test('a cart of three fits a 390 px screen, totals and Remove in view', async ({ page }) => {
	for (const slug of ['canvas-tote', 'field-notebook', 'beeswax-candle']) {
		await page.goto(`/products/${slug}`)
		await page.getByRole('button', { name: 'Add to cart' }).click()
		await expect(page).toHaveURL('/cart')
	}
	await expect(page.getByTestId('cart-line')).toHaveCount(3)
	expect(await overflow(page)).toBeLessThanOrEqual(0)
	for (const line of await page.getByTestId('cart-line').all()) {
		for (const part of [line.locator('td[data-label="Total"]'), line.getByRole('button', { name: 'Remove' })]) {
			await expect(part).toBeInViewport()
			const box = (await part.boundingBox())!
			expect(box.x + box.width).toBeLessThanOrEqual(390)
		}
	}
	await page.getByTestId('cart-line').first().getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByTestId('cart-line')).toHaveCount(2)
})

test('the shop’s pages are no wider than a 390 px screen', async ({ page }) => {
	for (const path of ['/', '/products/canvas-tote', '/search?q=mug', '/checkout', '/sign-in', '/sign-up', '/newsletter']) {
		await page.goto(path)
		expect(await overflow(page), path).toBeLessThanOrEqual(0)
	}
})
