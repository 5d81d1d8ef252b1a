/**
 * The Store's look [R120], with JavaScript on and off: an admin uploads a logo, picks an accent
 * colour and publishes policy pages at /admin/store; shoppers see the logo in the header, the
 * colour through /theme.css (the CSP keeps `style-src 'self'`), and the policies linked from the
 * footer. Then the refusals over HTTP. The logo replaces the store name in every header, so this
 * spec works on a store process of its own, never on the shared server the other specs read.
 */
import { type APIRequestContext, request as playwrightRequest } from '@playwright/test'
import { IMAGES, multipart } from '../helpers/images.ts'
import { expect, submitSignInForm, test } from './support/fixtures.ts'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'

let store: StoreProcess

test.beforeAll(async () => {
	test.setTimeout(120_000)
	store = await startStoreProcess()
})
test.afterAll(async () => {
	await store?.stop()
})

/** An API client of the spec's store, posting from its origin as the store's own pages do. */
async function client(signedIn: boolean): Promise<APIRequestContext> {
	const api = await playwrightRequest.newContext({ baseURL: store.origin, extraHTTPHeaders: { Origin: store.origin } })
	if (signedIn) {
		const response = await api.post('/sign-in', { form: { email: store.admin.email, password: store.admin.password, redirectTo: '' }, maxRedirects: 0 })
		expect(response.status()).toBe(302)
	}
	return api
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('an admin sets the logo, the colour and the policies, and shoppers see them [R120]', async ({ page, browser }) => {
			test.setTimeout(90_000)
			await page.goto(`${store.origin}/sign-in?redirectTo=%2Fadmin%2Fstore`)
			await submitSignInForm(page, store.admin.email, store.admin.password)
			await expect(page).toHaveURL(`${store.origin}/admin/store`)
			const flash = page.getByTestId('flash')
			try {
				await page.getByLabel(/^Logo \(PNG/).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: IMAGES.svg })
				await page.getByRole('button', { name: 'Upload logo' }).click()
				// The store's first SVG loads the sanitiser (a DOM of its own): seconds on a busy machine.
				await expect(flash).toContainText('Logo saved.', { timeout: 20_000 })
				await expect(page.getByTestId('current-logo')).toBeVisible()

				await page.getByLabel('Accent colour for links and buttons').fill('#ffff00')
				await page.getByRole('button', { name: 'Apply colour' }).click()
				await expect(page.getByText(/too light to read/).first()).toBeVisible()
				await page.getByLabel('Accent colour for links and buttons').fill('#0b6e4f')
				await page.getByRole('button', { name: 'Apply colour' }).click()
				await expect(flash).toContainText('Colour applied.')

				await page.getByLabel('Shipping policy').fill('We ship within two days.\nTracked, always.\n\nAbroad: <b>a week</b>.')
				await page.getByLabel('Returns and refunds').fill('Thirty days, no questions.')
				await page.getByRole('button', { name: 'Publish policies' }).click()
				await expect(flash).toContainText('Policies published.')

				// A shopper in a browser of their own.
				const shopper = await browser.newContext({ javaScriptEnabled })
				const visit = await shopper.newPage()
				const violations: string[] = []
				visit.on('console', (message) => {
					if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
				})
				await visit.goto(`${store.origin}/`)
				const logo = visit.locator('header .brand img')
				await expect(logo).toBeVisible()
				await expect(logo).toHaveAttribute('alt', /\S/)
				expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
				// The colour arrives through the stylesheet, and the page's own CSP lets it apply.
				await expect(visit.locator('link[rel="stylesheet"][href="/theme.css?v=0b6e4f"]')).toHaveCount(1)
				await expect(visit.getByRole('link', { name: 'Shipping policy' })).toHaveCSS('color', 'rgb(11, 110, 79)')
				await expect(visit.getByRole('link', { name: 'Privacy policy' })).toHaveCount(0)
				await visit.getByRole('link', { name: 'Shipping policy' }).click()
				await expect(visit).toHaveURL(`${store.origin}/policies/shipping`)
				await expect(visit.getByRole('heading', { name: 'Shipping policy' })).toBeVisible()
				const paragraphs = visit.locator('article.policy > p:not(.breadcrumbs):not(.hint)')
				await expect(paragraphs).toHaveCount(2)
				await expect(paragraphs.nth(0)).toHaveText('We ship within two days.Tracked, always.')
				// Written text stays text: no element was made of it.
				await expect(paragraphs.nth(1)).toHaveText('Abroad: <b>a week</b>.')
				await expect(visit.locator('article.policy b')).toHaveCount(0)
				expect(violations).toEqual([])
				await shopper.close()
			} finally {
				// Back to the plain look for the other run, whatever failed above.
				await page.goto(`${store.origin}/admin/store`)
				for (const [button, message] of [
					['Remove the logo', 'Logo removed'],
					['Use the default colours', 'The default colours are back.'],
				] as const) {
					if ((await page.getByRole('button', { name: button }).count()) > 0) {
						await page.getByRole('button', { name: button }).click()
						await expect(flash).toContainText(message)
					}
				}
				for (const label of ['Shipping policy', 'Returns and refunds', 'Privacy policy']) await page.getByLabel(label).fill('')
				await page.getByRole('button', { name: 'Publish policies' }).click()
				await expect(flash).toContainText('Policies published.')
			}
			await page.goto(`${store.origin}/`)
			await expect(page.locator('header .brand img')).toHaveCount(0)
			await expect(page.locator('link[href^="/theme.css"]')).toHaveCount(0)
			await expect(page.getByRole('link', { name: 'Shipping policy' })).toHaveCount(0)
		})
	})
}

test('refusals: bad colours, foreign fields, non-images, two logos, guests, deleting the logo, unknown pages [R120]', async () => {
	const admin = await client(true)
	const guest = await client(false)
	try {
		const post = (api: APIRequestContext, intent: string, form: Record<string, string>) => api.post(`/admin/store?intent=${intent}`, { form, maxRedirects: 0 })
		const accent = async () => (await (await guest.get('/theme.css?v=any')).text()).trim()
		expect(await accent()).toBe('')
		for (const accentColor of ['red', '#ffff00', '#0b6e4f;}body{display:none}', 'x'.repeat(40)]) {
			expect((await post(admin, 'accent', { accentColor })).status(), accentColor).toBe(400)
		}
		expect((await post(admin, 'accent', { accentColor: '#0b6e4f', storeId: 'another-store' })).status()).toBe(400)
		expect(await accent()).toBe('')
		expect((await post(admin, 'policies', { shipping: 'x'.repeat(20_001), returns: '', privacy: '' })).status()).toBe(400)
		expect((await post(admin, 'policies', { shipping: 'Fine', returns: '', privacy: '', terms: 'Extra' })).status()).toBe(400)
		expect((await guest.get('/policies/shipping')).status()).toBe(404)
		expect((await post(admin, 'made-up', {})).status()).toBe(400)

		const upload = (api: APIRequestContext, parts: Parameters<typeof multipart>[0]) => {
			const { body, contentType } = multipart(parts)
			return api.post('/admin/store?intent=logo', { data: body, headers: { 'content-type': contentType }, maxRedirects: 0 })
		}
		expect((await upload(admin, [{ name: 'file', filename: 'logo.png', type: 'image/png', body: 'not an image at all' }])).status()).toBe(415)
		expect(
			(
				await upload(admin, [
					{ name: 'file', filename: 'a.png', type: 'image/png', body: IMAGES.png },
					{ name: 'file', filename: 'b.png', type: 'image/png', body: IMAGES.png },
				])
			).status(),
		).toBe(413)
		expect((await (await guest.get('/')).text()).includes('class="brand-logo"')).toBe(false)
		expect((await guest.get('/policies/shipping')).status()).toBe(404)
		// Shoppers and signed-out visitors cannot post at all.
		for (const refused of [
			await upload(guest, [{ name: 'file', filename: 'a.png', type: 'image/png', body: IMAGES.png }]),
			await post(guest, 'accent', { accentColor: '#0b6e4f' }),
			await post(guest, 'policies', { shipping: 'Guest text', returns: '', privacy: '' }),
		]) {
			expect(refused.status()).toBe(302)
			expect(refused.headers().location).toMatch(/^\/sign-in\?redirectTo=/)
		}
		expect((await guest.get('/policies/shipping')).status()).toBe(404)
		expect(await accent()).toBe('')

		// A logo cannot be deleted while it is the logo.
		expect((await upload(admin, [{ name: 'file', filename: 'a.png', type: 'image/png', body: IMAGES.png }])).status()).toBe(302)
		const home = await (await guest.get('/')).text()
		const key = /src="\/media\/([^"]+)"[^>]*class="brand-logo"|class="brand-logo"[^>]*src="\/media\/([^"]+)"/.exec(home)
		const logoKey = key?.[1] ?? key?.[2]
		expect(logoKey).toBeTruthy()
		const image = await guest.get(`/media/${logoKey}`)
		expect(image.status()).toBe(200)
		expect(image.headers()['content-type']).toBe('image/png')
		expect((await admin.delete(`/media/${logoKey}`)).status()).toBe(409)
		expect((await post(admin, 'remove-logo', {})).status()).toBe(302)
		expect((await guest.get(`/media/${logoKey}`)).status()).toBe(404)
		expect((await admin.delete(`/media/${logoKey}`)).status()).toBe(204)

		for (const path of ['/policies/terms', '/policies/..%2Fshipping', '/policies/SHIPPING', '/policies/constructor']) {
			expect((await guest.get(path)).status(), path).toBe(404)
		}
		// The stylesheet never echoes what it is asked for.
		expect((await post(admin, 'accent', { accentColor: '#0B6E4F' })).status()).toBe(302)
		const current = await guest.get('/theme.css?v=0b6e4f')
		expect(await current.text()).toBe(':root{--accent:#0b6e4f}\n')
		expect(current.headers()['content-type']).toMatch(/^text\/css/)
		expect(current.headers()['cache-control']).toContain('immutable')
		const stale = await guest.get('/theme.css?v=%7D*%7Bcolor:red')
		expect(await stale.text()).toBe(':root{--accent:#0b6e4f}\n')
		expect(stale.headers()['cache-control']).toBe('no-cache')
		expect((await post(admin, 'reset-accent', {})).status()).toBe(302)
		expect(await accent()).toBe('')
	} finally {
		await admin.dispose()
		await guest.dispose()
	}
})
