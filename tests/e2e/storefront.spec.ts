/**
 * as shoppers meet it in Chromium: catalog, cart, checkout with the offline
 * provider and through the Stripe stand-in, orders in the account, guest carts that
 * survive sign-in, bad cart input, and the newsletter. The e2e store is seeded with the
 * demo products (`npm run init -- --demo`).
 */
import { type Page, request as apiRequest } from '@playwright/test'
import { expect, fillCheckout, newShopper, serverOrigin, signUp, submitSignInForm, test } from './support/fixtures.ts'

async function addToCart(page: Page, slug: string, quantity: number) {
	await page.goto(`/products/${slug}`)
	await page.getByLabel('Quantity').fill(String(quantity))
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
}

async function guestCheckout(page: Page, email = `guest-${Date.now()}@example.com`) {
	await page.goto('/')
	await page.getByRole('link', { name: /Canvas tote bag/ }).click()
	await expect(page).toHaveURL('/products/canvas-tote')
	await expect(page.getByRole('heading', { name: 'Canvas tote bag' })).toBeVisible()
	await page.getByLabel('Quantity').fill('2')
	await page.getByRole('button', { name: 'Add to cart' }).click()
	await expect(page).toHaveURL('/cart')
	await expect(page.getByTestId('flash')).toContainText('Added Canvas tote bag')
	await expect(page.getByTestId('cart-count')).toHaveText(' (2)')
	await expect(page.getByTestId('cart-subtotal')).toHaveText('$48.00')
	await page.getByRole('link', { name: 'Check out' }).click()
	await expect(page).toHaveURL('/checkout')
	await fillCheckout(page, email)
	await page.getByRole('button', { name: 'Place order' }).click()
	await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]{43}$/)
	await expect(page.getByRole('heading', { name: /Thank you! Order #\d+/ })).toBeVisible()
	await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment')
	await expect(page.getByTestId('order-total')).toHaveText('$48.00')
	await expect(page.getByTestId('cart-link')).toHaveText('Cart')
}

test('demo products show the drawing init stored for them, served as an image', async ({ page, request }) => {
	// Init runs compiled from build/ here (as in the container) and reads the drawings from the
	// project's app/catalog/demo-images: a product seeded without its image fails this.
	for (const [slug, name] of [
		['canvas-tote', 'Canvas tote bag'],
		['enamel-mug', 'Enamel camp mug'],
	]) {
		await page.goto(`/products/${slug}`)
		const image = page.getByRole('img', { name })
		await expect(image).toHaveAttribute('src', /^\/media\/stores\/[^/]+\/uploads\/[0-9a-f]{32}\.svg$/)
		const response = await request.get((await image.getAttribute('src')) ?? '')
		expect(response.status()).toBe(200)
		expect(response.headers()['content-type']).toMatch(/^image\/svg\+xml/)
		expect((await response.body()).toString('utf8')).toContain('<svg')
	}
})

test('a guest fills a cart, checks out with the offline provider and sees the confirmation', async ({ page }) => {
	await guestCheckout(page)
	// The confirmation is the token link; the number alone opens nothing.
	const number = (await page.getByRole('heading', { name: /Order #/ }).textContent())?.match(/#(\d+)/)?.[1]
	expect((await page.request.get(`/orders/${number}`)).status()).toBe(404)
	expect((await page.request.get(`/account/orders/${number}`, { maxRedirects: 0 })).status()).toBe(302)
})

test.describe('with JavaScript disabled', () => {
	test.use({ javaScriptEnabled: false })

	test('the same guest checkout works without JavaScript', async ({ page }) => {
		await guestCheckout(page)
	})

	test('checkout form errors come back with 400 and the cart is kept', async ({ page }) => {
		await addToCart(page, 'enamel-mug', 1)
		await page.goto('/checkout')
		const answer = page.waitForResponse((r) => r.request().method() === 'POST')
		await page.getByLabel('Email').fill('not-an-email')
		await page.getByRole('button', { name: 'Place order' }).click()
		expect((await answer).status()).toBe(400)
		await expect(page.getByText('Enter a valid email address')).toBeVisible()
		await expect(page.getByText('Enter a street address')).toBeVisible()
		await expect(page.getByTestId('cart-count')).toHaveText(' (1)')
	})
})

test('a page is sent whole, with its length; a 404 page keeps its status', async ({ request }) => {
	// Asked uncompressed, so the length is the page's own. (That the browser takes over from
	// such a page and navigates client-side: headers.spec.ts.)
	for (const [path, status] of [
		['/', 200],
		['/products/canvas-tote', 200],
		['/no-such-page', 404],
	] as const) {
		const response = await request.get(path, { headers: { 'accept-encoding': 'identity' } })
		expect(response.status(), path).toBe(status)
		const body = await response.body()
		expect(response.headers()['transfer-encoding'], path).toBeUndefined()
		expect(response.headers()['content-length'], path).toBe(String(body.byteLength))
		expect(body.toString('utf8'), path).toMatch(/^<!DOCTYPE html>.*<\/html>$/s)
	}
})

test('a page visitor is given a guestId; a provider’s event delivery and a health probe are not', async () => {
	const context = await apiRequest.newContext({ baseURL: serverOrigin() })
	try {
		// Before any page: this context holds no cookie yet.
		const delivery = await context.post('/api/events/stripe', { data: '{"id":"evt_unsigned"}', headers: { 'content-type': 'application/json' } })
		expect(delivery.status()).toBe(400)
		expect(await delivery.json()).toMatchObject({ code: 'VERIFICATION_FAILED' })
		expect(delivery.headers()['set-cookie']).toBeUndefined()
		const probe = await context.get('/healthz')
		expect(probe.status()).toBe(200)
		expect(probe.headers()['set-cookie']).toBeUndefined()

		const page = await context.get('/')
		expect(page.status()).toBe(200)
		expect(page.headers()['set-cookie']).toMatch(/^guestId=/)
	} finally {
		await context.dispose()
	}
})

test('a customer sees the Order in their account and a second customer cannot open it', async ({ page, customer }) => {
	await addToCart(page, 'field-notebook', 3)
	await page.goto('/checkout')
	await expect(page.getByLabel('Email')).toHaveValue(customer.email)
	await fillCheckout(page, customer.email)
	await page.getByRole('button', { name: 'Place order' }).click()
	const number = (await page.getByRole('heading', { name: /Order #/ }).textContent())?.match(/#(\d+)/)?.[1]
	await page.goto('/account/orders')
	await page.getByRole('link', { name: `#${number}` }).click()
	await expect(page).toHaveURL(`/account/orders/${number}`)
	await expect(page.getByTestId('order-total')).toHaveText('$27.00')

	const other = await apiRequest.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
	await signUp(other)
	expect((await other.get(`/account/orders/${number}`)).status()).toBe(404)
	expect(await (await other.get('/account/orders')).text()).not.toContain(`#${number}`)
	await other.dispose()
})

test('a guest cart joins the customer’s cart when they sign in [R2]', async ({ page }) => {
	const shopper = newShopper()
	const client = await apiRequest.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
	await signUp(client, shopper)
	await client.dispose()
	await addToCart(page, 'beeswax-candle', 2)
	await page.goto('/sign-in?redirectTo=%2Fcart')
	await submitSignInForm(page, shopper.email, shopper.password)
	await expect(page).toHaveURL('/cart')
	await expect(page.getByTestId('cart-line')).toHaveCount(1)
	await expect(page.getByTestId('cart-count')).toHaveText(' (2)')
})

test('the Stripe path creates a Checkout Session for the Order’s amount and sends the shopper to it', async ({ page }) => {
	await addToCart(page, 'linen-napkins', 1)
	await addToCart(page, 'enamel-mug', 2)
	await page.goto('/checkout')
	await fillCheckout(page, `stripe-${Date.now()}@example.com`)
	await page.getByLabel('Card (Stripe)').check()
	await page.getByRole('button', { name: 'Place order' }).click()
	// 3200 + 2 × 1600 minor units, in the Store's currency, on the provider's page.
	await expect(page.getByRole('heading', { name: 'Pay 6400 usd' })).toBeVisible()
	const orderId = await page.locator('[data-order]').getAttribute('data-order')
	const recorded = (await (await fetch(`http://127.0.0.1:${process.env.E2E_STRIPE_PORT}/__requests`)).json()) as Array<{
		path: string
		idempotencyKey: string
		authorized: boolean
		form: Record<string, string>
	}>
	const call = recorded.find((r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === orderId)
	expect(call?.idempotencyKey).toBe(`order-${orderId}`)
	expect(call?.authorized).toBe(true)
	expect(call?.form['line_items[0][price_data][unit_amount]']).toBe('3200')
	expect(call?.form['metadata[orderId]']).toBe(orderId)
})

test.describe('bad cart input gets a clear 4xx and changes nothing', () => {
	test('quantities, unknown products, foreign lines and price fields', async ({ request }) => {
		const product = await request.get('/products/canvas-tote')
		const productId = /name="productId" value="([^"]+)"/.exec(await product.text())?.[1]
		expect(productId).toBeTruthy()
		for (const quantity of ['-1', '0', '1.5', '1e3', '100', '99999999999', 'two', '']) {
			const response = await request.post('/cart', { form: { intent: 'add', productId: productId!, quantity }, maxRedirects: 0 })
			expect(response.status(), quantity).toBe(400)
		}
		const extras: Array<Record<string, string>> = [{ price: '1' }, { total: '1' }, { storeId: 'x' }, { userId: 'y' }]
		for (const extra of extras) {
			const response = await request.post('/cart', { form: { intent: 'add', productId: productId!, quantity: '1', ...extra }, maxRedirects: 0 })
			expect(response.status(), JSON.stringify(extra)).toBe(400)
		}
		expect((await request.post('/cart', { form: { intent: 'add', productId: 'no-such-product', quantity: '1' }, maxRedirects: 0 })).status()).toBe(404)
		expect((await request.post('/cart', { form: { intent: 'add', productId: productId!, quantity: '41' }, maxRedirects: 0 })).status()).toBe(409)
		expect((await request.post('/cart', { form: { intent: 'explode' }, maxRedirects: 0 })).status()).toBe(400)
		expect(await (await request.get('/cart')).text()).toContain('Your cart is empty.')

		// Another guest's line id is not found, and their cart is unchanged.
		const other = await apiRequest.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
		await other.post('/cart', { form: { intent: 'add', productId: productId!, quantity: '1' } })
		const lineId = /name="lineId" value="([^"]+)"/.exec(await (await other.get('/cart')).text())?.[1]
		expect(lineId).toBeTruthy()
		expect((await request.post('/cart', { form: { intent: 'update', lineId: lineId!, quantity: '5' }, maxRedirects: 0 })).status()).toBe(404)
		expect((await request.post('/cart', { form: { intent: 'remove', lineId: lineId! }, maxRedirects: 0 })).status()).toBe(404)
		expect(await (await other.get('/cart')).text()).toMatch(/value="1"/)
		await other.dispose()
	})

	test('a tampered guestId cookie opens no cart and breaks no page', async ({ playwright }) => {
		const client = await playwright.request.newContext({
			baseURL: serverOrigin(),
			extraHTTPHeaders: { Origin: serverOrigin(), cookie: 'guestId=IjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMCI%3D.forged' },
		})
		for (const path of ['/', '/cart', '/checkout', '/products/canvas-tote']) {
			const response = await client.get(path, { maxRedirects: 0 })
			expect([200, 302], path).toContain(response.status())
		}
		expect(await (await client.get('/cart')).text()).toContain('Your cart is empty.')
		await client.dispose()
	})

	test('checkout with an empty cart goes back to the cart; a replayed submit places one Order', async ({ request }) => {
		const empty = await request.get('/checkout', { maxRedirects: 0 })
		expect(empty.status()).toBe(302)
		expect(empty.headers().location).toBe('/cart')
		const product = await request.get('/products/field-notebook')
		const productId = /name="productId" value="([^"]+)"/.exec(await product.text())?.[1]
		await request.post('/cart', { form: { intent: 'add', productId: productId!, quantity: '1' } })
		const page = await (await request.get('/checkout')).text()
		const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(page)?.[1]
		const form = {
			email: 'replay@example.com',
			name: 'Re Play',
			addressLine1: '2 Main St',
			addressLine2: '',
			city: 'Town',
			postalCode: '999',
			country: 'US',
			payment: 'offline',
			idempotencyKey: idempotencyKey!,
		}
		const first = await request.post('/checkout', { form, maxRedirects: 0 })
		const second = await request.post('/checkout', { form, maxRedirects: 0 })
		expect(first.status()).toBe(302)
		expect(second.status()).toBe(302)
		expect(second.headers().location).toBe(first.headers().location)
		await request.post('/cart', { form: { intent: 'add', productId: productId!, quantity: '1' } })
		const tampered = await request.post('/checkout', { form: { ...form, idempotencyKey: crypto.randomUUID(), total: '1' }, maxRedirects: 0 })
		expect(tampered.status(), await tampered.text()).toBe(400)
	})
})

test('newsletter without sending configured: the page says it is closed, a post is refused 503 and nothing is stored', async ({ page, request }) => {
	await page.goto('/newsletter')
	await expect(page.getByTestId('newsletter-unavailable')).toContainText('sends no email')
	const email = `news-${Date.now()}@example.com`
	const answer = await request.post('/newsletter', { form: { email } })
	expect(answer.status()).toBe(503)
	expect(await answer.text()).not.toContain('/newsletter/unsubscribe')
	// Unsubscribe and confirm links are checked before anything else: a forged one is a 400.
	expect((await request.get('/newsletter/unsubscribe?token=garbage')).status()).toBe(400)
	expect((await request.get('/newsletter/confirm?token=garbage')).status()).toBe(400)
	expect((await request.post('/newsletter/confirm?token=garbage', { form: { token: 'garbage' } })).status()).toBe(400)
})

test('password recovery is off unless the operator turns it on: no link, and its pages answer 404 [R21]', async ({ page, request }) => {
	await page.goto('/sign-in')
	await expect(page.getByText('offers no password reset by email')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveCount(0)
	expect((await request.get('/forgot-password')).status()).toBe(404)
	expect((await request.post('/forgot-password', { form: { email: 'a@example.com' } })).status()).toBe(404)
	expect((await request.get('/reset-password?token=abcdefgh12')).status()).toBe(404)
})
