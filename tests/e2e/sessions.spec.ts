/**
 * [R26] /account/security lists the user's sessions and ends them.
 */
import { expect, registerShopper, serverOrigin, submitSignInForm, test } from './support/fixtures.ts'

test('sign out everywhere else ends another browser’s session [R26]', async ({ page, browser }) => {
	const shopper = await registerShopper()
	// Another browser signs in first.
	const other = await (await browser.newContext()).newPage()
	await other.goto('/sign-in')
	await submitSignInForm(other, shopper.email, shopper.password)
	await expect(other).toHaveURL('/account')

	await page.goto('/sign-in')
	await submitSignInForm(page, shopper.email, shopper.password)
	await expect(page).toHaveURL('/account')
	await page.getByRole('link', { name: /Your sessions/ }).click()
	await expect(page).toHaveURL('/account/security')
	const rows = page.getByTestId('sessions').locator('tbody tr')
	await expect(rows).toHaveCount(3) // sign-up, the other browser, this one
	await expect(page.locator('tr[data-current="true"]')).toContainText('This device')
	await expect(page.locator('tr[data-current="true"]')).toContainText('Chrome')

	await page.getByRole('button', { name: 'Sign out everywhere else' }).click()
	await expect(page.getByText('Signed out 2 other sessions.')).toBeVisible()
	await expect(rows).toHaveCount(1)

	// The other browser is signed out; this one is not.
	await other.goto('/account')
	await expect(other).toHaveURL('/sign-in?redirectTo=%2Faccount')
	await page.goto('/account')
	await expect(page).toHaveURL('/account')
})

test('a session id of another user cannot be signed out, and a stray field is refused [R26]', async ({ browser, playwright }) => {
	const alice = await registerShopper()
	const bob = await registerShopper()
	const bobPage = await (await browser.newContext()).newPage()
	await bobPage.goto('/sign-in')
	await submitSignInForm(bobPage, bob.email, bob.password)
	await expect(bobPage).toHaveURL('/account')
	await bobPage.goto('/account/security')
	await expect(bobPage.locator('tr[data-current="true"]')).toHaveCount(1)

	const client = await playwright.request.newContext({ baseURL: serverOrigin() })
	try {
		const signIn = await client.post('/sign-in', { form: { email: alice.email, password: alice.password, redirectTo: '' }, maxRedirects: 0 })
		expect(signIn.status()).toBe(302)
		const headers = { origin: serverOrigin() }
		const unknown = await client.post('/account/security', { form: { intent: 'revoke', sessionId: 'someone-elses-session' }, headers, maxRedirects: 0 })
		expect(unknown.status()).toBe(404)
		const stray = await client.post('/account/security', { form: { intent: 'revoke-others', userId: 'x' }, headers, maxRedirects: 0 })
		expect(stray.status()).toBe(400)
	} finally {
		await client.dispose()
	}
	// Bob is still signed in.
	await bobPage.goto('/account')
	await expect(bobPage).toHaveURL('/account')
})
