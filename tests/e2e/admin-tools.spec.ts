/**
 * An owner's everyday tools in Store Admin: CSV exports of Orders and Products (formula cells
 * inert, bad dates refused), a guest buyer among the customers, an Order's packing slip, and a
 * form that never shows an earlier save's notice beside its own refusal; all admin-only.
 */
import { randomUUID } from 'node:crypto'
import { ADMIN_EMAIL, ADMIN_PASSWORD, asAdmin, expect, placeOrder, signIn, signUp, test } from './support/fixtures.ts'

test('Store Admin exports Orders with their lines and Products with their variants as CSV; bad dates are 400 [R128]', async ({ page, request }) => {
	const email = `guest-${randomUUID().slice(0, 8)}@example.com`
	const number = await placeOrder(page, 'enamel-mug', email)
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)

	const today = new Date().toISOString().slice(0, 10)
	const orders = await request.get(`/admin/orders/export.csv?from=${today}&to=${today}`)
	expect(orders.status()).toBe(200)
	expect(orders.headers()['content-type']).toBe('text/csv; charset=utf-8')
	expect(orders.headers()['content-disposition']).toContain(`orders-from-${today}-to-${today}.csv`)
	const text = await orders.text()
	expect(text.split('\r\n')[0]).toContain('"order_number","created_at","status","email"')
	const row = text.split('\r\n').find((line) => line.startsWith(`"${number}",`))
	expect(row).toContain(`"${email}"`)
	expect(row).toContain('"Enamel camp mug"')
	// Every Order in a range of today was placed today (an Order's later lines leave the date blank).
	const dates = text
		.trimEnd()
		.split('\r\n')
		.slice(1)
		.map((line) => line.split('","')[1])
	expect(dates.length).toBeGreaterThan(0)
	for (const date of dates) expect(date === '' || date!.startsWith(today), date).toBe(true)

	for (const query of ['from=2026-02-30', 'to=yesterday', 'from=2026-03-02&to=2026-03-01', 'from=2026-01-01T00:00']) {
		const refused = await request.get(`/admin/orders/export.csv?${query}`)
		expect(refused.status(), query).toBe(400)
		expect(refused.headers()['content-type'], query).not.toContain('text/csv')
	}

	const products = await request.get('/admin/products/export.csv')
	expect(products.status()).toBe(200)
	expect(products.headers()['content-type']).toBe('text/csv; charset=utf-8')
	const catalog = await products.text()
	expect(catalog.split('\r\n')[0]).toBe('"product_slug","product_title","status","option_names","variant_title","option_values","sku","price","stock"')
	expect(catalog).toContain('"enamel-mug","Enamel camp mug","active"')
})

test('the exports and the packing slip are for Store Admin only [R128]', async ({ browser, request }) => {
	await signUp(request)
	const anonymous = await browser.newContext()
	for (const path of ['/admin/orders/export.csv', '/admin/products/export.csv', '/admin/orders/1001/packing-slip']) {
		const answer = await anonymous.request.get(path, { maxRedirects: 0 })
		expect(answer.status(), path).toBe(302)
		expect(answer.headers().location, path).toContain('/sign-in')
		// A signed-in Customer is refused too.
		const customer = await request.get(path, { maxRedirects: 0 })
		expect([302, 403], path).toContain(customer.status())
		expect(await customer.text(), path).not.toContain('order_number')
	}
	await anonymous.close()
})

for (const javaScriptEnabled of [true, false]) {
	test(`a guest buyer is among the customers, and an Order prints as a packing slip, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R128] [R129]`, async ({
		browser,
		page,
	}) => {
		const email = `guest-${randomUUID().slice(0, 8)}@example.com`
		const number = await placeOrder(page, 'field-notebook', email)
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, '/admin/customers')
		await admin.getByRole('link', { name: 'Guest buyers' }).click()
		// With JavaScript the tab is a client navigation: its filter form is there once the URL is.
		await expect(admin).toHaveURL(/show=guests/)
		await admin.getByLabel('Email').fill(email)
		await admin.getByRole('button', { name: 'Filter' }).click()
		await expect(admin).toHaveURL(/show=guests/)
		const row = admin.getByRole('row').filter({ hasText: email })
		await expect(row).toContainText('1')
		await row.getByRole('link', { name: email }).click()
		await expect(admin.getByRole('heading', { name: email })).toBeVisible()
		await expect(admin.getByText('Bought as a guest (no account) · 1 order')).toBeVisible()
		await admin.getByRole('link', { name: `#${number}` }).click()
		await admin.getByRole('link', { name: 'Packing slip' }).click()
		await expect(admin.getByRole('heading', { name: `Packing slip · Order #${number}` })).toBeVisible()
		await expect(admin.getByTestId('slip-address')).toContainText('1 Market Street')
		await expect(admin.getByTestId('slip-address')).toContainText('United States')
		await expect(admin.getByTestId('slip-lines')).toContainText('Field notebook')
		await expect(admin.getByTestId('slip-lines')).not.toContainText('$')
		for (const missing of [
			'/admin/orders/abc/packing-slip',
			'/admin/orders/999999999/packing-slip',
			'/admin/customers/guest?email=nobody%40example.com',
			'/admin/customers/guest?email=%3Cscript%3E',
		]) {
			const answer = await admin.request.get(missing)
			expect(answer.status(), missing).toBe(404)
		}
		await close()
	})
}

for (const javaScriptEnabled of [true, false]) {
	test(`after a refused save the earlier success notice is gone and the error is beside its field and form, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R130]`, async ({
		browser,
	}) => {
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, '/admin/collections')
		const slug = `flash-${randomUUID().slice(0, 8)}`
		await admin.getByLabel('Title').fill(`Flash ${slug}`)
		await admin.getByLabel(/^Slug/).fill(slug)
		await admin.getByRole('button', { name: 'Create collection' }).click()
		await expect(admin.getByTestId('flash')).toContainText('Collection created')
		await admin.getByLabel('Title').fill('')
		await admin.getByRole('button', { name: 'Save', exact: true }).click()
		await expect(admin.locator('#field-title-error')).toBeVisible()
		await expect(admin.getByTestId('flash')).toHaveCount(0)
		// The delete form, sent without its box ticked: its error is in it, the details form's is gone.
		const remove = admin.getByTestId('delete-collection')
		await remove.getByRole('button', { name: 'Delete' }).click()
		await expect(remove.getByRole('alert')).toHaveText('Tick the box to confirm you want to delete this collection.')
		await expect(admin.getByRole('alert')).toHaveCount(1)
		// A save that succeeds shows its own notice again.
		await admin.getByLabel('Title').fill(`Flash ${slug} again`)
		await admin.getByRole('button', { name: 'Save', exact: true }).click()
		await expect(admin.getByTestId('flash')).toContainText('Collection saved.')
		await close()
	})
}

test('after a refused colour, the store profile’s Save still saves the profile, not the colour form whose address the page kept, JavaScript off [R130]', async ({
	browser,
}) => {
	const { admin, close } = await asAdmin(browser, false, '/admin/store')
	await admin.getByLabel('Accent colour for links and buttons').fill('#ffff00')
	await admin.getByRole('button', { name: 'Apply colour' }).click()
	await expect(admin.getByText(/too light to read/).first()).toBeVisible()
	await expect(admin).toHaveURL(/intent=accent/)
	const name = await admin.getByLabel('Store name').inputValue()
	await admin.getByRole('button', { name: 'Save', exact: true }).click()
	await expect(admin.getByTestId('flash')).toHaveText('Store profile saved.')
	await expect(admin.getByLabel('Store name')).toHaveValue(name)
	await close()
})

test('a product’s refused delete answers in its own card, and Save then saves the product, JavaScript off [R130]', async ({ browser }) => {
	const { admin, close } = await asAdmin(browser, false, '/admin/products')
	await admin.locator('tbody tr', { hasText: 'Linen napkins' }).locator('a[href^="/admin/products/"]').first().click()
	const availability = admin.getByTestId('availability')
	await availability.getByRole('button', { name: 'Delete' }).click()
	await expect(availability.getByRole('alert')).toHaveText('Tick the box to confirm you want to delete this product.')
	await expect(admin.getByRole('alert')).toHaveCount(1)
	await admin.getByRole('button', { name: 'Save', exact: true }).click()
	await expect(admin.getByTestId('flash')).toHaveText('Product saved.')
	await close()
})

test('a new product’s slug follows its title and its variant rows take the option names, JavaScript on; the no-JS form still saves [R130]', async ({
	browser,
}) => {
	const { admin, close } = await asAdmin(browser, true, '/admin/products/new')
	const slug = admin.getByLabel(/^Slug/)
	await admin.getByLabel('Title').fill('Crème Brûlée Mug')
	await expect(slug).toHaveValue('creme-brulee-mug')
	await admin.getByLabel('Option 1 name').fill('Size')
	await admin.getByLabel('Option 2 name').fill('Colour')
	const firstRow = admin.getByTestId('variant-row').first()
	await expect(firstRow.getByLabel('Size')).toBeVisible()
	await expect(firstRow.getByLabel('Colour')).toBeVisible()
	// A slug typed by hand is kept when the title changes again.
	await slug.fill('my-mug')
	await admin.getByLabel('Title').fill('Crème Brûlée Mug, large')
	await expect(slug).toHaveValue('my-mug')
	await close()

	const noScript = await asAdmin(browser, false, '/admin/products/new')
	const title = `Plain ${randomUUID().slice(0, 8)}`
	await noScript.admin.getByLabel('Title').fill(title)
	await expect(noScript.admin.getByLabel(/^Slug/)).toHaveValue('')
	await noScript.admin.getByLabel(/^Slug/).fill(title.toLowerCase().replace(' ', '-'))
	const row = noScript.admin.getByTestId('variant-row').first()
	await row.getByLabel(/^Price/).fill('9.50')
	await noScript.admin.getByRole('button', { name: 'Create product' }).click()
	await expect(noScript.admin.getByRole('heading', { name: title })).toBeVisible()
	await noScript.close()
})

for (const javaScriptEnabled of [true, false]) {
	test(`Store Admin uses the window: the menu beside the content on a desktop, folded behind "Menu" on a phone, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({
		browser,
		page,
	}) => {
		await placeOrder(page)
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, '/admin/orders')
		const nav = admin.getByRole('navigation', { name: 'Store Admin' })
		const content = admin.locator('.admin-content')
		await admin.setViewportSize({ width: 1280, height: 800 })
		await expect(nav).toBeVisible()
		const [navBox, contentBox] = [(await nav.boundingBox())!, (await content.boundingBox())!]
		expect(navBox.x + navBox.width).toBeLessThanOrEqual(contentBox.x)
		expect(contentBox.width).toBeGreaterThan(900)
		// A status is a badge on one line, with its words.
		const badge = admin.locator('tbody .badge').first()
		await expect(badge).toHaveText(/Awaiting payment|Paid|Shipped|Cancelled|Refunded/)
		expect((await badge.boundingBox())!.height).toBeLessThan(30)

		await admin.setViewportSize({ width: 390, height: 844 })
		await expect(nav).toBeHidden()
		// Stacked rows: nothing is wider than the phone.
		expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
		await admin.getByText('Menu', { exact: true }).click()
		await expect(nav).toBeVisible()
		await nav.getByRole('link', { name: 'Customers' }).click()
		await expect(admin).toHaveURL('/admin/customers')
		await close()
	})
}

for (const javaScriptEnabled of [true, false]) {
	const js = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`

	test(`after payment instructions are saved, a refused secret rotation shows its error beside the rotation only, ${js} [R130]`, async ({ browser }) => {
		const { admin, close } = await asAdmin(browser, javaScriptEnabled, '/admin/connections')
		// The details payment-instructions.spec.ts saves, so whichever runs first, buyers read the same.
		const instructions = admin.getByTestId('instructions-offline')
		for (const [label, value] of Object.entries({
			'Account holder': 'Harbour Goods Ltd',
			Bank: 'Example Bank',
			'IBAN or account number': 'DE89 3704 0044 0532 0130 00',
			Reference: 'HARBOUR-{number}',
			'Note (optional)': 'Thanks for paying within 7 days',
		}))
			await instructions.getByLabel(label).fill(value)
		await instructions.getByRole('button', { name: 'Save instructions' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Payment instructions saved for offline.')
		const rotate = admin.getByTestId('rotate-stripe')
		await rotate.getByLabel('New secret for stripe').fill('too-short')
		await rotate.getByRole('button', { name: 'Rotate' }).click()
		await expect(rotate.getByRole('alert')).toHaveText('Paste the full secret (16 characters or more)')
		await expect(rotate.getByLabel('New secret for stripe')).toHaveAttribute('aria-invalid', 'true')
		await expect(admin.getByRole('alert')).toHaveCount(1)
		await expect(admin.getByTestId('add-connection').getByLabel('Event verification secret')).not.toHaveAttribute('aria-invalid', 'true')
		await expect(admin.getByTestId('flash')).toHaveCount(0)
		await close()
	})
}
