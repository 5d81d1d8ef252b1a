/**
 * [R20] email and password sign-in for Customers, the one
 * generic failure message, sign-in without JavaScript, and `redirectTo` that
 * can only lead back to this site.
 */
import { GENERIC_SIGN_IN_FAILURE, expect, newShopper, serverOrigin, registerShopper, submitSignInForm, submitSignUpForm, test } from './support/fixtures.ts'

test('a shopper signs up, signs out and signs in again [R20]', async ({ page, context }) => {
	const shopper = newShopper()

	await page.goto('/sign-up')
	await submitSignUpForm(page, shopper)

	await expect(page).toHaveURL('/account')
	await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
	const header = page.getByRole('banner')
	await expect(header.getByRole('link', { name: shopper.name })).toHaveAttribute('href', '/account')
	// A Customer is not a Store Admin.
	await expect(header.locator('a[href="/admin"]')).toHaveCount(0)
	expect((await context.cookies()).map((c) => c.name)).toContain('better-auth.session_token')

	await header.getByRole('button', { name: 'Sign out' }).click()
	await expect(page).toHaveURL('/')
	await expect(header.getByRole('link', { name: 'Sign in' })).toBeVisible()
	await expect(header.getByRole('link', { name: shopper.name })).toHaveCount(0)

	// Signed out: the account page sends the visitor to sign-in, and back after it.
	await page.goto('/account')
	await expect(page).toHaveURL('/sign-in?redirectTo=%2Faccount')
	await submitSignInForm(page, shopper.email, shopper.password)
	await expect(page).toHaveURL('/account')
	await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
	await expect(header.getByRole('link', { name: shopper.name })).toBeVisible()
})

test('a signed-in shopper edits their name on the account page [R20]', async ({ page, customer }) => {
	const renamed = `Renamed ${customer.name}`
	await page.goto('/account')
	await expect(page.getByTestId('account-email')).toHaveText(customer.email)
	await page.getByLabel('Name').fill(renamed)
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByRole('banner').getByRole('link', { name: renamed })).toBeVisible()
	await page.reload()
	await expect(page.getByLabel('Name')).toHaveValue(renamed)
})

test('a wrong password and an unknown email get the same generic 401 answer [R20] (no account enumeration)', async ({ page, request }) => {
	const shopper = await registerShopper()
	const unknownEmail = newShopper().email

	// The document POST the no-JS form makes: same status, same message, no session.
	const answers = []
	for (const email of [shopper.email, unknownEmail]) {
		const response = await request.post('/sign-in', {
			form: { email, password: 'not-the-password', redirectTo: '' },
			maxRedirects: 0,
		})
		expect(response.status(), `sign-in as ${email}`).toBe(401)
		const html = await response.text()
		expect(html).toContain(GENERIC_SIGN_IN_FAILURE)
		expect(html).not.toMatch(/no (such )?account|not registered|not found|incorrect password/i)
		expect(response.headers()['set-cookie'] ?? '').not.toContain('session_token')
		answers.push(html.match(/<p class="form-error" role="alert">([^<]*)<\/p>/)?.[1])
	}
	expect(answers[0]).toBe(GENERIC_SIGN_IN_FAILURE)
	expect(answers[1]).toBe(answers[0])

	// In the browser, both failures read the same and leave the visitor on the form.
	const shown = []
	for (const email of [shopper.email, unknownEmail]) {
		await page.goto('/sign-in')
		const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/sign-in'))
		await submitSignInForm(page, email, 'not-the-password')
		expect((await answer).status()).toBe(401)
		const alert = page.getByRole('alert')
		await expect(alert).toHaveText(GENERIC_SIGN_IN_FAILURE)
		shown.push(await alert.textContent())
		await expect(page).toHaveURL(/\/sign-in$/)
	}
	expect(shown[1]).toBe(shown[0])
	await page.goto('/account')
	await expect(page).toHaveURL('/sign-in?redirectTo=%2Faccount')
})

test.describe('with JavaScript disabled', () => {
	test.use({ javaScriptEnabled: false })

	test('the sign-in form works and sets a session [R20]', async ({ page, context }) => {
		const shopper = await registerShopper()

		await page.goto('/sign-in?redirectTo=%2Faccount')
		// Without JavaScript the browser itself posts the form: a document request, not a data fetch.
		const post = page.waitForRequest((r) => r.method() === 'POST')
		await submitSignInForm(page, shopper.email, shopper.password)
		expect((await post).resourceType()).toBe('document')
		expect(new URL((await post).url()).pathname).toBe('/sign-in')

		await expect(page).toHaveURL('/account')
		await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
		const session = (await context.cookies()).find((c) => c.name === 'better-auth.session_token')
		expect(session?.httpOnly).toBe(true)
		expect(session?.sameSite).toBe('Lax')

		// The session holds across a fresh page load.
		await page.goto('/account')
		await expect(page).toHaveURL('/account')
		await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
	})

	test('a wrong password shows the generic message without JavaScript [R20]', async ({ page }) => {
		const shopper = await registerShopper()
		await page.goto('/sign-in')
		const answer = page.waitForResponse((r) => r.request().method() === 'POST')
		await submitSignInForm(page, shopper.email, 'not-the-password')
		expect((await answer).status()).toBe(401)
		await expect(page.getByRole('alert')).toHaveText(GENERIC_SIGN_IN_FAILURE)
	})

	test('the sign-up form works and signs the shopper in [R20]', async ({ page }) => {
		const shopper = newShopper()
		await page.goto('/sign-up')
		await submitSignUpForm(page, shopper)
		await expect(page).toHaveURL('/account')
		await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
	})
})

test.describe('redirectTo after sign-in stays on this site', () => {
	const foreign = [
		'https://evil.example',
		'//evil.example',
		'/\\evil.example',
		'/%2F%2Fevil.example',
		'https:evil.example',
		'javascript:alert(1)',
		// Dot segments and their encodings next to slashes resolve to //evil.example [R27].
		'/.//evil.example',
		'/a/..//evil.example',
		'/%2e%2e//evil.example',
		'/%2e/%2Fevil.example',
		'/%252f%252fevil.example',
	]

	test('the sign-in action never redirects off-site [R27]', async ({ request }) => {
		const shopper = await registerShopper()
		for (const redirectTo of foreign) {
			const response = await request.post('/sign-in', {
				form: { email: shopper.email, password: shopper.password, redirectTo },
				maxRedirects: 0,
			})
			expect(response.status(), redirectTo).toBe(302)
			const location = response.headers().location ?? ''
			expect(location, redirectTo).toBe('/account')
		}
		// A same-site path is honoured, so the refusals above are not an ignored field.
		const honoured = await request.post('/sign-in', {
			form: { email: shopper.email, password: shopper.password, redirectTo: '/?from=sign-in' },
			maxRedirects: 0,
		})
		expect(honoured.headers().location).toBe('/?from=sign-in')
	})

	test('redirectTo survives the detour from sign-in to sign-up', async ({ page, request }) => {
		await page.goto('/account')
		await expect(page).toHaveURL('/sign-in?redirectTo=%2Faccount')
		await page.getByRole('link', { name: 'Create an account' }).click()
		await expect(page).toHaveURL('/sign-up?redirectTo=%2Faccount')
		const shopper = newShopper()
		await submitSignUpForm(page, shopper)
		await expect(page).toHaveURL('/account')
		await expect(page.getByTestId('account-email')).toHaveText(shopper.email)

		// The same rule as sign-in: a foreign target is dropped, and a local one honoured.
		const cases: Array<[string, string]> = [...foreign.map((target): [string, string] => [target, '/account']), ['/?from=sign-up', '/?from=sign-up']]
		for (const [redirectTo, expected] of cases) {
			const other = newShopper()
			const response = await request.post('/sign-up', {
				form: { name: other.name, email: other.email, password: other.password, redirectTo },
				maxRedirects: 0,
			})
			expect(response.status(), redirectTo).toBe(302)
			expect(response.headers().location, redirectTo).toBe(expected)
		}
	})

	test('a signed-in visitor sent to sign-in or sign-up is redirected on-site only [R27]', async ({ request }) => {
		await registerShopper().then((shopper) =>
			request.post('/sign-in', { form: { email: shopper.email, password: shopper.password, redirectTo: '' }, maxRedirects: 0 }),
		)
		for (const page of ['/sign-in', '/sign-up']) {
			for (const redirectTo of foreign) {
				const response = await request.get(`${page}?${new URLSearchParams({ redirectTo })}`, { maxRedirects: 0 })
				expect(response.status(), `${page} ${redirectTo}`).toBe(302)
				expect(response.headers().location, `${page} ${redirectTo}`).toBe('/account')
			}
			const honoured = await request.get(`${page}?redirectTo=%2F%3Fback%3D1`, { maxRedirects: 0 })
			expect(honoured.headers().location, page).toBe('/?back=1')
		}
	})

	for (const redirectTo of ['https://evil.example', '//evil.example', '/.//evil.example', '/%2e%2e//evil.example']) {
		test(`the browser lands on a same-origin page for redirectTo=${redirectTo} [R27]`, async ({ page }) => {
			const shopper = await registerShopper()
			const offSite: string[] = []
			page.on('request', (r) => {
				if (new URL(r.url()).hostname.endsWith('evil.example')) offSite.push(r.url())
			})
			await page.goto(`/sign-in?${new URLSearchParams({ redirectTo })}`)
			await submitSignInForm(page, shopper.email, shopper.password)
			await expect(page).toHaveURL('/account')
			expect(new URL(page.url()).origin).toBe(serverOrigin())
			await expect(page.getByTestId('account-email')).toHaveText(shopper.email)
			expect(offSite).toEqual([])
		})
	}

	test('a same-site redirectTo brings the shopper back where they were [R5]', async ({ page }) => {
		const shopper = await registerShopper()
		await page.goto('/sign-in?redirectTo=%2F%3Ffrom%3Dsign-in')
		await submitSignInForm(page, shopper.email, shopper.password)
		await expect(page).toHaveURL('/?from=sign-in')
		await expect(page.getByRole('banner').getByRole('link', { name: shopper.name })).toBeVisible()
	})
})
