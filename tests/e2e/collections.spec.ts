/**
 * Collections as an owner makes them and shoppers find them: Store Admin creates one, fills it
 * with demo products and orders them (with and without JavaScript); the home page links it (or,
 * past its first 12, "All collections" does) and `/collections/<slug>` shows its active products
 * in that order.
 */
import { randomUUID } from 'node:crypto'
import { type Browser, type Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, signIn, submitSignInForm, test } from './support/fixtures.ts'

async function asAdmin(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled })
	const admin = await context.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fcollections')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(admin).toHaveURL('/admin/collections')
	return { admin, close: () => context.close() }
}

/**
 * Opens a collection from the home page: its own link when it is among the first 12 there,
 * else through "All collections" [R141]. Other specs of the run make collections too.
 */
async function openFromHome(page: Page, title: string) {
	await page.goto('/')
	const strip = page.getByRole('navigation', { name: 'Collections' })
	if ((await strip.getByRole('link', { name: title, exact: true }).count()) === 0) {
		await strip.getByRole('link', { name: /^All collections \(\d+\)$/ }).click()
		await expect(page).toHaveURL('/collections')
	}
	await page.getByRole('link', { name: title, exact: true }).click()
}

for (const javaScriptEnabled of [true, false]) {
	test(`an owner builds an ordered collection and shoppers browse it, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R111]`, async ({ browser, page }) => {
		const { admin, close } = await asAdmin(browser, javaScriptEnabled)
		const slug = `picks-${randomUUID().slice(0, 8)}`
		const title = `Picks ${slug.slice(6)}`
		await admin.getByLabel('Title').fill(title)
		await admin.getByLabel(/^Slug/).fill(slug)
		await admin.getByLabel('Description').fill('What we use every day.')
		await admin.getByRole('button', { name: 'Create collection' }).click()
		await expect(admin.getByTestId('flash')).toContainText('Collection created')
		await expect(admin.getByRole('heading', { name: title })).toBeVisible()

		for (const product of ['Field notebook', 'Enamel camp mug']) {
			await admin.getByLabel('Add a product').selectOption({ label: product })
			await admin.getByRole('button', { name: 'Add', exact: true }).click()
			await expect(admin.getByTestId('flash')).toContainText('Product added')
		}
		await expect(admin.getByTestId('collection-product')).toHaveText([/Field notebook/, /Enamel camp mug/])
		await admin.getByRole('button', { name: 'Move Enamel camp mug up' }).click()
		await expect(admin.getByTestId('collection-product')).toHaveText([/Enamel camp mug/, /Field notebook/])
		await close()

		await openFromHome(page, title)
		await expect(page).toHaveURL(`/collections/${slug}`)
		await expect(page.getByRole('heading', { name: title })).toBeVisible()
		await expect(page.locator('.product-card .product-title')).toHaveText(['Enamel camp mug', 'Field notebook'])
	})
}

test('unknown collections are 404, and another id or a bad field changes nothing [R111]', async ({ request }) => {
	expect((await request.get(`${serverOrigin()}/collections/no-such-collection`)).status()).toBe(404)
	expect((await request.get(`${serverOrigin()}/collections/${'x'.repeat(300)}`)).status()).toBe(404)
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	expect((await request.get('/admin/collections/not-a-collection')).status()).toBe(404)
	const missing = await request.post('/admin/collections/not-a-collection?intent=add', { form: { productId: 'x' }, maxRedirects: 0 })
	expect(missing.status()).toBe(404)
	const bad = await request.post('/admin/collections', { form: { title: '', slug: 'Not A Slug!', description: '' }, maxRedirects: 0 })
	expect(bad.status()).toBe(400)
	const extra = await request.post('/admin/collections', { form: { title: 'x', slug: 'x', description: '', storeId: 'other' }, maxRedirects: 0 })
	expect(extra.status()).toBe(400)
})

test('past 12 collections the home page links "All collections", which lists every one in order [R141]', async ({ browser, page, request }) => {
	const { admin, close } = await asAdmin(browser, true)
	const run = randomUUID().slice(0, 8)
	const titles = Array.from({ length: 13 }, (_, index) => `Shelf ${run} ${String(index + 1).padStart(2, '0')}`)
	for (const [index, title] of titles.entries()) {
		const made = await admin.request.post('/admin/collections', {
			form: { title, slug: `shelf-${run}-${index + 1}`, description: '' },
			headers: { Origin: serverOrigin() },
			maxRedirects: 0,
		})
		expect(made.status()).toBe(302)
	}
	await close()

	await page.goto('/')
	const strip = page.getByRole('navigation', { name: 'Collections' })
	const all = strip.getByRole('link', { name: /^All collections \((\d+)\)$/ })
	await expect(all).toHaveAttribute('href', '/collections')
	const total = Number(/\((\d+)\)/.exec((await all.textContent()) ?? '')?.[1])
	expect(total).toBeGreaterThanOrEqual(13)
	// The first 12 and the one link to the rest.
	await expect(strip.getByRole('link')).toHaveCount(13)
	await all.click()
	await expect(page).toHaveURL('/collections')
	await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible()
	const listed = page.getByTestId('collection-index').getByRole('link')
	await expect(listed).toHaveCount(Math.min(total, 60))
	const shown = (await listed.allTextContents()).filter((text) => text.startsWith(`Shelf ${run}`))
	expect(shown).toEqual(titles)
	await listed.filter({ hasText: titles[12]! }).click()
	await expect(page).toHaveURL(`/collections/shelf-${run}-13`)

	// A forged page is the first one; a page past the end is empty, not an error.
	const forged = await request.get(`${serverOrigin()}/collections?page=abc`)
	expect(forged.status()).toBe(200)
	expect(await forged.text()).toContain(`Shelf ${run} 01`)
	const late = await request.get(`${serverOrigin()}/collections?page=999`)
	expect(late.status()).toBe(200)
	const lateHtml = await late.text()
	expect(lateHtml).toContain('data-testid="collections-empty"')
	expect(lateHtml).not.toContain(`Shelf ${run}`)
})

test('a collection’s row buttons come back to the page they were on, and a page past the end lists nothing [R146]', async ({ request }) => {
	// The paging itself (60 a page, a move across a page's edge) is proven on 130 products in
	// app/catalog/collections.server.test.ts; the shared e2e store keeps its demo products in view.
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const run = randomUUID().slice(0, 8)
	const made = await request.post('/admin/collections', { form: { title: `Paged ${run}`, slug: `paged-${run}`, description: '' }, maxRedirects: 0 })
	expect(made.status()).toBe(302)
	const here = made.headers().location!
	expect(here).toMatch(/^\/admin\/collections\/[\w-]+$/)
	const titles = (html: string) => [...html.matchAll(/data-testid="collection-product"><a [^>]*>([^<]+)</g)].map((match) => match[1])
	const offered = await (await request.get(here)).text()
	const choice = (title: string) => new RegExp(`<option value="([\\w-]+)">${title}</option>`).exec(offered)?.[1]
	const [notebook, mug] = [choice('Field notebook'), choice('Enamel camp mug')]
	expect(notebook && mug).toBeTruthy()
	for (const productId of [notebook!, mug!]) expect((await request.post(`${here}?intent=add`, { form: { productId }, maxRedirects: 0 })).status()).toBe(302)
	expect(titles(await (await request.get(here)).text())).toEqual(['Field notebook', 'Enamel camp mug'])

	const moved = await request.post(`${here}?intent=move&page=2`, { form: { productId: mug!, direction: 'up' }, maxRedirects: 0 })
	expect(moved.status()).toBe(302)
	expect(moved.headers().location).toBe(`${here}?page=2`)
	const past = await (await request.get(`${here}?page=2`)).text()
	expect(titles(past)).toEqual([])
	expect(past).toContain('No products on this page.')
	expect(titles(await (await request.get(here)).text())).toEqual(['Enamel camp mug', 'Field notebook'])
	// A page that is not a number is the first; a remove from page 1 comes back to the bare address.
	expect(titles(await (await request.get(`${here}?page=abc`)).text())).toEqual(['Enamel camp mug', 'Field notebook'])
	const removed = await request.post(`${here}?intent=remove`, { form: { productId: mug! }, maxRedirects: 0 })
	expect(removed.headers().location).toBe(here)
	expect(titles(await (await request.get(here)).text())).toEqual(['Field notebook'])
})
