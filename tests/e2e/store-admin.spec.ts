/**
 * in the browser: an operator uploads an image, creates a product with it and sees
 * it on the storefront; marks an offline order paid and the customer sees it; a customer
 * reaches none of Store Admin; every change lands in the activity log.
 */
import { randomUUID } from 'node:crypto'
import { request as apiRequest } from '@playwright/test'
import { IMAGES } from '../helpers/images.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, placeOrder, serverOrigin, signIn, submitSignInForm, test } from './support/fixtures.ts'

test('an admin uploads an image, creates a product with it, and shoppers see both [R34]', async ({ page, browser }) => {
	await page.goto('/sign-in?redirectTo=%2Fadmin%2Fuploads')
	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(page).toHaveURL('/admin/uploads')
	// Other specs upload at the same time: the new image is the PNG that was not there before.
	const shown = () => page.locator('.upload-grid img').evaluateAll((all) => all.map((img) => img.getAttribute('src') ?? ''))
	const before = new Set(await shown())
	await page.getByLabel(/Images/).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: IMAGES.png })
	await page.getByRole('button', { name: 'Upload' }).click()
	await expect(page.getByTestId('flash')).toHaveText('1 image uploaded.')
	const key = (await shown()).find((src) => !before.has(src) && src.endsWith('.png'))!.replace('/media/', '')

	const slug = `poster-${randomUUID().slice(0, 8)}`
	await page.goto('/admin/products/new')
	await page.getByLabel('Title').fill('Harbour poster')
	await page.getByLabel(/^Slug/).fill(slug)
	await page
		.getByRole('group', { name: 'New variant 1' })
		.getByLabel(/^Price/)
		.fill('19.90')
	await page
		.getByRole('group', { name: 'New variant 1' })
		.getByLabel(/^Stock/)
		.fill('7')
	await page.getByLabel('Status').selectOption('active')
	await page.getByRole('button', { name: 'Create product' }).click()
	await expect(page.getByTestId('flash')).toContainText('created')
	await expect(page.getByTestId('product-status')).toHaveText('active')
	await page.getByLabel('Or add an image uploaded before').selectOption(key)
	await page.getByRole('button', { name: 'Add', exact: true }).click()
	await expect(page.getByTestId('flash')).toHaveText('Image added.')
	await expect(page.getByTestId('gallery-image')).toHaveCount(1)

	const shopper = await browser.newContext()
	const shop = await shopper.newPage()
	await shop.goto(`/products/${slug}`)
	await expect(shop.getByRole('heading', { name: 'Harbour poster' })).toBeVisible()
	await expect(shop.getByText('$19.90')).toBeVisible()
	const image = await shop.request.get(`/media/${key}`)
	expect(image.status()).toBe(200)
	expect(image.headers()['content-type']).toBe('image/png')
	await shopper.close()

	// Unpublished, it disappears for shoppers, image included.
	await page.getByRole('button', { name: 'Unpublish' }).click()
	await expect(page.getByTestId('product-status')).toHaveText('draft')
	const anonymous = await apiRequest.newContext({ baseURL: serverOrigin() })
	expect((await anonymous.get(`/products/${slug}`)).status()).toBe(404)
	expect((await anonymous.get(`/media/${key}`)).status()).toBe(404)
	await anonymous.dispose()

	await page.goto('/admin/activity')
	await expect(page.getByRole('cell', { name: /^Product “.+” created$/ }).first()).toBeVisible()
	await expect(page.getByRole('cell', { name: 'Product made a draft' }).first()).toBeVisible()
	// Targets by name, linked: the product by its title, not its id.
	await expect(
		page
			.getByRole('row', { name: /Product made a draft/ })
			.first()
			.getByRole('link', { name: 'Harbour poster' }),
	).toBeVisible()
})

test('an admin marks an offline order paid and the customer sees it paid', async ({ page, browser, customer }) => {
	await page.goto('/products/canvas-tote')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await page.goto('/checkout')
	for (const [label, value] of [
		['Street address', '3 Quay'],
		['City', 'Harbour'],
		['Postal code', '4040'],
	]) {
		await page.getByLabel(label!).fill(value!)
	}
	await page.getByLabel('Country', { exact: true }).selectOption('GB')
	await page.getByRole('button', { name: 'Place order' }).click()
	const number = (await page.getByRole('heading', { name: /Order #/ }).textContent())?.match(/#(\d+)/)?.[1]
	expect(customer.email).toContain('@')

	const operator = await browser.newContext()
	const admin = await operator.newPage()
	await admin.goto(`/sign-in?redirectTo=%2Fadmin%2Forders%3Fq%3D${number}`)
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await admin.getByRole('link', { name: `#${number}` }).click()
	await admin.getByRole('button', { name: 'Mark paid' }).click()
	await expect(admin.getByTestId('flash')).toHaveText('Order marked paid.')
	await expect(admin.getByTestId('order-status')).toHaveText('Paid')
	// Cancelling needs the confirmation box.
	await admin.getByRole('button', { name: 'Cancel order' }).click()
	await expect(admin.getByText('Tick the box to confirm the cancellation.')).toBeVisible()
	await expect(admin.getByTestId('order-status')).toHaveText('Paid')
	await operator.close()

	await page.goto(`/account/orders/${number}`)
	await expect(page.getByTestId('order-status')).toHaveText('Paid')
})

test('a customer reaches none of Store Admin, and a storeId in the body is refused', async ({ page, customer, request }) => {
	expect(customer.name).toBeTruthy()
	for (const path of [
		'/admin/products',
		'/admin/products/new',
		'/admin/orders',
		'/admin/uploads',
		'/admin/activity',
		'/admin/email',
		'/admin/newsletter',
		'/admin/newsletter/export',
		'/admin/reviews',
		'/admin/collections',
		'/admin/customers',
	]) {
		const response = await page.goto(path)
		expect(response?.status(), path).toBe(403)
	}
	const refused = await page.request.post('/admin/products/new', {
		form: { title: 'x', slug: 'x', description: '', 'variant.0.price': '1', 'variant.0.stock': '1', status: 'active', imageKey: '' },
		headers: { Origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(refused.status()).toBe(403)

	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const slug = `inj-${randomUUID().slice(0, 8)}`
	const injected = await request.post('/admin/products/new', {
		form: { title: 'x', slug, description: '', 'variant.0.price': '1', 'variant.0.stock': '1', status: 'active', imageKey: '', storeId: 'another-store' },
		maxRedirects: 0,
	})
	expect(injected.status()).toBe(400)
	for (const price of ['-1', '1.999', 'abc', '1e3']) {
		const bad = await request.post('/admin/products/new', {
			form: { title: 'x', slug, description: '', 'variant.0.price': price, 'variant.0.stock': '1', status: 'active', imageKey: '' },
			maxRedirects: 0,
		})
		expect(bad.status(), price).toBe(400)
	}
	expect((await request.get(`/products/${slug}`)).status()).toBe(404)
})

test('the overview shows sales, the orders waiting for the shop with links to them, and low stock [R114]', async ({ page, browser }) => {
	const shopper = await browser.newContext()
	const number = String(await placeOrder(await shopper.newPage()))
	await shopper.close()

	await page.goto('/sign-in')
	await submitSignInForm(page, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(page).toHaveURL('/admin')
	await expect(page.getByTestId('sales').locator('li')).toHaveCount(3)
	const waiting = page.getByTestId('awaiting-payment')
	// The card lists the oldest five; other specs' orders may be older than this one.
	const count = Number((await waiting.locator('h2 .count').textContent())?.replace(/\D/g, ''))
	expect(count).toBeGreaterThanOrEqual(1)
	await expect(waiting.locator('li')).toHaveCount(Math.min(count, 5))
	// The demo socks start with 3: there is always something low, each linked to its product.
	await expect(page.getByTestId('low-stock').locator('li a[href^="/admin/products/"]').first()).toBeVisible()
	await waiting.getByRole('link', { name: /Awaiting payment/ }).click()
	await expect(page).toHaveURL('/admin/orders?status=awaiting_payment')
	await expect(page.getByRole('link', { name: `#${number}` }).or(page.getByRole('link', { name: number }))).toBeVisible()
})

test('a customer who ordered is found by name in Customers, with their order linked; read-only [R115]', async ({ page, customer, browser }) => {
	const number = await placeOrder(page, 'field-notebook', customer.email)
	const context = await browser.newContext()
	const admin = await context.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fcustomers')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await admin.getByLabel('Name or email').fill(customer.email.toUpperCase())
	await admin.getByRole('button', { name: 'Filter' }).click()
	await admin.getByRole('link', { name: customer.name }).click()
	await expect(admin.getByTestId('customer-email')).toHaveText(customer.email)
	await expect(admin.getByTestId('customer-order')).toHaveCount(1)
	await admin.getByRole('link', { name: `#${number}` }).click()
	await expect(admin).toHaveURL(`/admin/orders/${number}`)
	await expect(admin.locator('form input[type="password"]')).toHaveCount(0)
	await context.close()
})
