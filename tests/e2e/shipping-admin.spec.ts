/**
 * Store Admin › Shipping and taxes [R119], with JavaScript on and off: an admin adds a zone, a rate
 * and a tax rate through the page, sees them listed and removes them again; a bad price is refused
 * beside its field. Those writes go to a store process of this spec's own: once a Store has any
 * zone its checkout needs a shipping choice, and the shared server's other specs check out in
 * parallel without one. On the shared server, which this spec leaves as it was: another Store's
 * (here a random) id answers 404, and a Customer gets 403.
 */
import { randomUUID } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, signIn, signUp, submitSignInForm, test } from './support/fixtures.ts'
import { storeOfThisSpec } from './support/store-process.ts'

test.describe('an admin edits shipping and taxes', () => {
	const store = storeOfThisSpec(test)

	for (const javaScriptEnabled of [true, false]) {
		test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
			test.use({ javaScriptEnabled })

			test('an admin adds a zone, a rate and a tax rate, sees them listed, and removes them [R119]', async ({ page }) => {
				test.setTimeout(90_000)
				const here = `${store().origin}/admin/shipping`
				const zoneName = `Zone ${randomUUID().slice(0, 8)}`
				await page.goto(`${store().origin}/sign-in?redirectTo=%2Fadmin%2Fshipping`)
				await submitSignInForm(page, store().admin.email, store().admin.password)
				await expect(page).toHaveURL(here)
				const zone = page.getByTestId('shipping-zone').filter({ has: page.getByRole('heading', { name: zoneName }) })
				const taxes = page.getByTestId('tax-rates')
				try {
					await page.getByLabel('Zone name').fill(zoneName)
					await page.getByLabel('Country codes, separated by commas').fill('us, ca')
					await page.getByRole('button', { name: 'Add zone' }).click()
					await expect(page.getByTestId('flash')).toContainText('Zone added.')
					await expect(zone).toContainText('United States (US), Canada (CA)')

					await zone.getByLabel(`New rate for ${zoneName}`).fill('Ground')
					await zone.getByLabel('Price').fill('-1')
					await zone.getByRole('button', { name: 'Add rate' }).click()
					await expect(zone.getByText('Enter a price like 4.95 (0 for free)')).toBeVisible()
					await zone.getByLabel(`New rate for ${zoneName}`).fill('Ground')
					await zone.getByLabel('Price').fill('4.95')
					await zone.getByLabel('Free from (optional)').fill('50')
					await zone.getByRole('button', { name: 'Add rate' }).click()
					await expect(page.getByTestId('flash')).toContainText('Rate added.')
					await expect(zone.getByTestId('shipping-rate')).toHaveText([/Ground\s*\$4\.95\s*Free over \$50\.00/])

					await page.getByLabel('Country code', { exact: true }).fill('de')
					await page.getByLabel('Tax rate (percent)').fill('7.5')
					await page.getByRole('button', { name: 'Save tax rate' }).click()
					await expect(page.getByTestId('flash')).toContainText('Tax rate saved.')
					await expect(taxes).toContainText('Germany (DE)')
					await expect(taxes).toContainText('7.5%')
					// The accessibility spec sees this page empty; here it has a zone, a rate and a tax rate.
					// axe runs as a script in the page, so it can only look with JavaScript on (the markup is the same).
					if (javaScriptEnabled) {
						const { violations } = await new AxeBuilder({ page }).analyze()
						expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([])
					}

					await zone.getByRole('button', { name: `Remove the rate Ground of ${zoneName}` }).click()
					await expect(page.getByTestId('flash')).toContainText('Rate removed.')
					await expect(zone.getByTestId('shipping-rate')).toHaveCount(0)
				} finally {
					// Nothing left behind, whatever failed above.
					await page.goto(here)
					const removeZone = page.getByRole('button', { name: `Remove zone ${zoneName} and its rates` })
					if ((await removeZone.count()) > 0) {
						await removeZone.click()
						await expect(page.getByTestId('flash')).toContainText('Zone removed')
					}
					const removeTax = page.getByRole('button', { name: 'Remove the tax rate of Germany' })
					if ((await removeTax.count()) > 0) {
						await removeTax.click()
						await expect(page.getByTestId('flash')).toContainText('Tax rate removed.')
					}
				}
				await expect(zone).toHaveCount(0)
				await expect(taxes).not.toContainText('Germany')
			})
		})
	}
})

test('a forged id answers 404, an unknown field 400, and the shared Store keeps no zone [R119]', async ({ request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const post = (intent: string, form: Record<string, string>) => request.post(`/admin/shipping?intent=${intent}`, { form, maxRedirects: 0 })
	const id = randomUUID()
	expect((await post('remove-zone', { zoneId: id })).status()).toBe(404)
	expect((await post('remove-rate', { rateId: id })).status()).toBe(404)
	expect((await post(`add-rate&zone=${id}`, { rateName: 'Forged', price: '1.00', freeOver: '' })).status()).toBe(404)
	expect((await post('add-zone', { name: `Forged ${id}`, countries: 'US', storeId: 'another-store' })).status()).toBe(400)
	const page = await request.get('/admin/shipping')
	expect(page.status()).toBe(200)
	expect(await page.text()).not.toContain('Forged')
})

test('a Customer gets 403 on the page and its forms [R119]', async ({ page, request }) => {
	await signUp(page.request)
	const response = await page.goto('/admin/shipping')
	expect(response?.status()).toBe(403)
	await signUp(request)
	const refused = await request.post(`${serverOrigin()}/admin/shipping?intent=add-zone`, { form: { name: 'Mine', countries: 'US' }, maxRedirects: 0 })
	expect(refused.status()).toBe(403)
})
