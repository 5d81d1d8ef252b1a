/**
 * A product's images, as an owner adds them without leaving the product's page and shoppers see
 * them: several uploaded at once through the page's own form (with and without JavaScript),
 * moved, one taken off; the product page shows them all, first as the main image.
 */
import { randomUUID } from 'node:crypto'
import { type Browser } from '@playwright/test'
import { IMAGES } from '../helpers/images.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, signIn, submitSignInForm, test } from './support/fixtures.ts'

async function asAdmin(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled })
	const admin = await context.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fproducts%2Fnew')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(admin).toHaveURL('/admin/products/new')
	return { admin, close: () => context.close() }
}

const mediaKeys = async (images: import('@playwright/test').Locator) =>
	(await images.evaluateAll((all) => all.map((img) => img.getAttribute('src')))).map((src) => src!.replace('/media/', ''))

for (const javaScriptEnabled of [true, false]) {
	test(`an owner adds, orders and removes several images on the product's page, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R112]`, async ({
		browser,
		page,
	}) => {
		const { admin, close } = await asAdmin(browser, javaScriptEnabled)
		const slug = `gallery-${randomUUID().slice(0, 8)}`
		await admin.getByLabel('Title').fill('Gallery lamp')
		await admin.getByLabel(/^Slug/).fill(slug)
		await admin
			.getByRole('group', { name: 'New variant 1' })
			.getByLabel(/^Price/)
			.fill('45')
		await admin
			.getByRole('group', { name: 'New variant 1' })
			.getByLabel(/^Stock/)
			.fill('4')
		await admin.getByLabel('Status').selectOption('active')
		await admin.getByRole('button', { name: 'Create product' }).click()
		await expect(admin.getByTestId('gallery-empty')).toBeVisible()

		await admin.getByLabel(/^Upload images/).setInputFiles([
			{ name: 'front.png', mimeType: 'image/png', buffer: IMAGES.png },
			{ name: 'side.gif', mimeType: 'image/gif', buffer: IMAGES.gif },
			{ name: 'back.webp', mimeType: 'image/webp', buffer: IMAGES.webp },
		])
		await admin.getByRole('button', { name: 'Upload', exact: true }).click()
		await expect(admin.getByTestId('flash')).toHaveText('3 images added.')
		const images = admin.getByTestId('gallery-image').locator('img')
		await expect(images).toHaveCount(3)
		const [front, side, back] = await mediaKeys(images)
		expect(front).toMatch(/\.png$/)
		await expect(images.first()).toHaveAttribute('width', '1')

		await admin.getByRole('button', { name: 'Move image 3 up' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Image moved.')
		expect(await mediaKeys(images)).toEqual([front, back, side])
		await admin.getByRole('button', { name: 'Remove image 1' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Image removed from the product.')
		await expect(images).toHaveCount(2)
		expect(await mediaKeys(images)).toEqual([back, side])
		await close()

		await page.goto(`/products/${slug}`)
		await expect(page.locator('.product-gallery > img')).toHaveAttribute('src', `/media/${back}`)
		await expect(page.locator('.gallery-thumbs img')).toHaveAttribute('src', `/media/${side}`)
		expect((await page.request.get(`/media/${side}`)).status()).toBe(200)
		// Taken off the product, the upload is no longer the storefront's to show.
		expect((await page.request.get(`/media/${front}`)).status()).toBe(404)
		await page.goto('/')
		await expect(page.locator(`a.product-card[href="/products/${slug}"] img`)).toHaveAttribute('src', `/media/${back}`)
	})
}

test("another Store's image key, an unknown image and a non-image are refused, changing nothing [R112]", async ({ request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const created = await request.post('/admin/products/new', {
		form: { title: 'Refusals', slug: `refusals-${randomUUID().slice(0, 8)}`, description: '', 'variant.0.price': '1', 'variant.0.stock': '1', status: 'draft' },
		maxRedirects: 0,
	})
	expect(created.status()).toBe(302)
	const product = created.headers().location!
	const foreign = `stores/another-store/uploads/${'a'.repeat(32)}.png`
	expect((await request.post(`${product}?intent=add-image`, { form: { key: foreign }, maxRedirects: 0 })).status()).toBe(400)
	expect((await request.post(`${product}?intent=remove-image`, { form: { key: foreign }, maxRedirects: 0 })).status()).toBe(404)
	expect((await request.post(`${product}?intent=move-image`, { form: { key: 'not a key', direction: 'up' }, maxRedirects: 0 })).status()).toBe(400)
	const text = await request.post(`${product}?intent=upload-images`, {
		multipart: { file: { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') } },
		maxRedirects: 0,
	})
	expect(text.status()).toBe(415)
	expect((await request.post('/admin/products/not-a-product?intent=add-image', { form: { key: foreign }, maxRedirects: 0 })).status()).toBe(404)
	const page = await request.get(product)
	expect(await page.text()).toContain('No images yet')
	expect((await request.get(`${serverOrigin()}/media/${foreign}`)).status()).toBe(404)
})

test('a photo is offered in smaller copies through srcset: WebP at the width asked, never a width the store does not make [R112]', async ({ request }) => {
	const sharp = (await import('sharp')).default
	const photo = await sharp({ create: { width: 1000, height: 750, channels: 3, background: '#2a6f97' } })
		.png()
		.toBuffer()
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const slug = `photo-${randomUUID().slice(0, 8)}`
	const created = await request.post('/admin/products/new', {
		multipart: {
			title: 'Harbour photo',
			slug,
			description: '',
			status: 'active',
			'variant.0.price': '12',
			'variant.0.stock': '3',
			file: { name: 'harbour.png', mimeType: 'image/png', buffer: photo },
		},
		maxRedirects: 0,
	})
	expect(created.status()).toBe(302)
	const page = await (await request.get(`/products/${slug}`)).text()
	const main = /<img class="product-image"[^>]*>/.exec(page)?.[0] ?? ''
	expect(main).toContain('width="1000"')
	expect(main).toContain('height="750"')
	const key = /src="\/media\/([^"?]+)"/.exec(main)?.[1] ?? ''
	// HTML attribute names are case-insensitive (React writes srcSet).
	expect(main.toLowerCase()).toContain(
		`srcset="/media/${key}?w=320 320w, /media/${key}?w=640 640w, /media/${key}?w=960 960w, /media/${key} 1000w"`.toLowerCase(),
	)

	for (const width of [320, 640, 960]) {
		const copy = await request.get(`/media/${key}?w=${width}`)
		expect(copy.status()).toBe(200)
		expect(copy.headers()['content-type']).toBe('image/webp')
		expect(await sharp(await copy.body()).metadata()).toMatchObject({ format: 'webp', width, height: (width * 3) / 4 })
	}
	// Never wider than the upload.
	expect((await sharp(await (await request.get(`/media/${key}?w=1280`)).body()).metadata()).width).toBe(1000)
	for (const width of ['333', '0', '-320', '320.5', 'x', '1'.repeat(40)]) expect((await request.get(`/media/${key}?w=${width}`)).status(), width).toBe(400)
	// A copy is no way around the storefront check: another Store's key is still not found.
	expect((await request.get(`/media/stores/another-store/uploads/${'c'.repeat(32)}.png?w=320`)).status()).toBe(404)
})
