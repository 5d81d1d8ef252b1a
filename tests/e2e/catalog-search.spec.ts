/**
 * Finding things in the catalog, as shoppers do: the search box in every page's header,
 * `/search?q=` with sorting and paging, sorting the home page, and stock on cards and
 * product pages — with and without JavaScript. The e2e store holds the demo products.
 */
import { type Page } from '@playwright/test'
import { expect, serverOrigin, test } from './support/fixtures.ts'

/** The prices on the cards, once the page has them (without JavaScript a sort is a new page load). */
async function cardPrices(page: Page) {
	await expect(page.locator('.product-card .price').first()).toBeVisible()
	const texts = await page.locator('.product-card .price').allTextContents()
	return texts.map((text) => Number(text.replace(/[^0-9.]/g, '')))
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a shopper searches from the header and finds a product by a word of its description [R110]', async ({ page }) => {
			await page.goto('/')
			await page.getByRole('searchbox', { name: 'Search products' }).fill('canvas')
			await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
			await expect(page).toHaveURL(/\/search\?q=canvas/)
			await expect(page.getByTestId('search-count')).toContainText('1 product matches')
			const card = page.locator('.product-card', { hasText: 'Canvas tote bag' })
			await expect(card).toBeVisible()
			await expect(card.getByTestId('stock')).toHaveText('In stock')

			await page.goto('/search?q=speckled%20enam')
			await expect(page.locator('.product-card')).toHaveCount(1)
			await expect(page.locator('.product-card')).toContainText('Enamel camp mug')
			await page.goto('/search?q=nothing-sells-this-zzz')
			await expect(page.getByTestId('search-empty')).toBeVisible()
		})

		test('the home page sorts by price with a plain form [R110]', async ({ page }) => {
			await page.goto('/')
			await page.getByLabel('Sort by').selectOption('price-asc')
			await page.getByRole('button', { name: 'Sort' }).click()
			await expect(page).toHaveURL(/sort=price-asc/)
			const ascending = await cardPrices(page)
			expect(ascending.length).toBeGreaterThan(1)
			expect(ascending).toEqual([...ascending].sort((a, b) => a - b))

			await page.goto('/?sort=price-desc')
			const descending = await cardPrices(page)
			expect(descending).toEqual([...descending].sort((a, b) => b - a))
			await expect(page.getByLabel('Sort by')).toHaveValue('price-desc')
		})
	})
}

test('the product page tells how many are left or that it sold out [R110]', async ({ page }) => {
	await page.goto('/products/canvas-tote')
	await expect(page.locator('.product-stock').getByTestId('stock')).toHaveText('In stock')
	await page.goto('/products/wool-socks')
	await expect(page.locator('.product-stock').getByTestId('stock')).toHaveText(/^(\d left|Sold out)$/)
})

test('a 10 KB search is refused with a 400 and search syntax is read as words [R110]', async ({ request }) => {
	const tooLong = await request.get(`${serverOrigin()}/search?q=${'a'.repeat(10_000)}`)
	expect(tooLong.status()).toBe(400)
	expect(await tooLong.text()).toContain('That search is too long')

	for (const q of ['"canvas"*', 'canvas OR NEAR(', 'canvas:* & !', "canvas'; DROP TABLE products; --", '***']) {
		const answer = await request.get(`${serverOrigin()}/search?q=${encodeURIComponent(q)}`)
		expect(answer.status(), q).toBe(200)
	}
	const unknownSort = await request.get(`${serverOrigin()}/search?q=canvas&sort=drop-table`)
	expect(unknownSort.status()).toBe(200)
	expect(await unknownSort.text()).toContain('Canvas tote bag')
	expect((await request.get(`${serverOrigin()}/`)).status()).toBe(200)
})
