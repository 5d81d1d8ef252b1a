/**
 * Collections as an owner makes them and shoppers find them: Store Admin creates one, fills it
 * with demo products and orders them (with and without JavaScript); the home page links it and
 * `/collections/<slug>` shows its active products in that order.
 */
import { randomUUID } from 'node:crypto'
import { type Browser } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, signIn, submitSignInForm, test } from './support/fixtures.ts'

async function asAdmin(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled })
	const admin = await context.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fcollections')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(admin).toHaveURL('/admin/collections')
	return { admin, close: () => context.close() }
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

		await page.goto('/')
		await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: title }).click()
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
