/**
 * Payment instructions for offline payment, as an owner sets them in Store Admin and a buyer
 * reads them on the order page: bank, holder, IBAN and a reference with the order number,
 * shown as text; bad input refused on the form, with and without JavaScript.
 */
import { type Browser } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, placeOrder, submitSignInForm, test } from './support/fixtures.ts'

async function asAdmin(browser: Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ javaScriptEnabled })
	const admin = await context.newPage()
	await admin.goto('/sign-in?redirectTo=%2Fadmin%2Fconnections')
	await submitSignInForm(admin, ADMIN_EMAIL, ADMIN_PASSWORD)
	await expect(admin).toHaveURL('/admin/connections')
	return { admin, close: () => context.close() }
}

for (const javaScriptEnabled of [true, false]) {
	test(`an owner sets bank details and a buyer paying offline reads them with the order number, JavaScript ${javaScriptEnabled ? 'on' : 'off'} [R113]`, async ({
		browser,
		page,
	}) => {
		const { admin, close } = await asAdmin(browser, javaScriptEnabled)
		const form = admin.getByTestId('instructions-offline')
		await form.getByLabel('IBAN or account number').fill('DE89 3704 0044 0532 0130 01')
		await form.getByRole('button', { name: 'Save instructions' }).click()
		await expect(admin.getByText('That IBAN is not valid').first()).toBeVisible()

		await form.getByLabel('Account holder').fill('Harbour Goods Ltd')
		await form.getByLabel('Bank').fill('Example Bank')
		await form.getByLabel('IBAN or account number').fill('DE89 3704 0044 0532 0130 00')
		await form.getByLabel('Reference').fill('HARBOUR-{number}')
		await form.getByLabel('Note (optional)').fill('<b>Thanks</b> for paying within 7 days')
		await form.getByRole('button', { name: 'Save instructions' }).click()
		await expect(admin.getByText('plain text only').first()).toBeVisible()
		await form.getByLabel('Note (optional)').fill('Thanks for paying within 7 days')
		await form.getByRole('button', { name: 'Save instructions' }).click()
		await expect(admin.getByTestId('flash')).toHaveText('Payment instructions saved for offline.')
		await close()

		const number = await placeOrder(page)
		const shown = page.getByTestId('payment-instructions')
		await expect(shown).toContainText('Account holder: Harbour Goods Ltd')
		await expect(shown).toContainText('IBAN / account number: DE89 3704 0044 0532 0130 00')
		await expect(shown).toContainText(`Reference: HARBOUR-${number}`)
		await expect(shown).toContainText('Thanks for paying within 7 days')
	})
}
