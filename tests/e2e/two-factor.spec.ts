/**
 * two-factor sign-in for Store Admin, without JavaScript throughout.
 * These specs switch a Store-wide setting on, so they run against a store server of their own
 * (tests/e2e/support/sso-store.ts, which also brings the managed OpenID provider for the SSO case).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { totpNow, unusedTotp, wrongTotp } from '../helpers/totp.ts'
import { expect, test } from './support/fixtures.ts'
import { type SsoStore, blockExternalRequests, managedSignIn, startSsoStore } from './support/sso-store.ts'

// Serial, and patient: each TOTP code is accepted once, so a test may wait for the next 30 s step.
test.describe.configure({ mode: 'serial', timeout: 90_000 })
test.use({ javaScriptEnabled: false })

let store: SsoStore
// The seeded admin enrols in the first test; the later ones sign in with its factor.
let secret = ''
let backupCodes: string[] = []
const second = { email: `second-admin-${randomUUID().slice(0, 8)}@e2e.example.com`, password: `pw-${randomBytes(12).toString('hex')}` }

const ENROLMENT_REQUIRED = 'This Store requires two-factor sign-in for administrators'

test.beforeAll(async () => {
	test.setTimeout(120_000)
	store = await startSsoStore({}, { passwordAdmins: [second] })
})
test.afterAll(async () => {
	await store?.stop()
})

async function freshPage(browser: Browser): Promise<Page> {
	const context = await browser.newContext({ javaScriptEnabled: false })
	const page = await context.newPage()
	await blockExternalRequests(page)
	return page
}

/** The sign-in form, on its way back to `redirectTo`. */
async function passwordStep(page: Page, email: string, password: string, redirectTo = '/admin') {
	await page.goto(`${store.origin}/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password', { exact: true }).fill(password)
	await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

async function codeStep(page: Page, code: string) {
	const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in/two-factor')
	await page.getByLabel('Code from your authenticator app').fill(code)
	await page.getByRole('button', { name: 'Verify' }).click()
	return (await response).status()
}

async function backupStep(page: Page, code: string) {
	await page.getByRole('link', { name: 'Use a backup code instead' }).click()
	const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in/two-factor')
	await page.getByLabel('Backup code').fill(code)
	await page.getByRole('button', { name: 'Verify' }).click()
	return (await response).status()
}

async function hasSession(page: Page) {
	return (await page.context().cookies()).some((c) => c.name.endsWith('session_token') && c.value !== '')
}

async function expectNoAdminSession(page: Page) {
	await page.goto(`${store.origin}/admin`)
	expect(new URL(page.url()).pathname).toBe('/sign-in')
	expect(await hasSession(page)).toBe(false)
}

/** The seeded admin, all the way to /admin (a code is asked once it has enrolled). */
async function signInSeededAdmin(page: Page) {
	await passwordStep(page, store.admin.email, store.admin.password)
	if (secret) {
		await expect(page).toHaveURL(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
		await codeStep(page, await unusedTotp(secret))
	}
	await expect(page).toHaveURL(`${store.origin}/admin`)
}

test('enrols an admin in TOTP without JavaScript, counting it only after a valid code (ASVS 6.3.3)', async ({ browser }) => {
	const page = await freshPage(browser)
	await signInSeededAdmin(page)
	await page.goto(`${store.origin}/account/security`)
	const section = page.getByTestId('two-factor')
	await expect(section.getByTestId('two-factor-status')).toContainText('Off')

	await section.getByLabel('Current password').fill('not-the-password')
	await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
	await expect(section.getByText('That password is not right.')).toBeVisible()

	await section.getByLabel('Current password').fill(store.admin.password)
	await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
	secret = (await section.getByTestId('totp-secret').textContent()) ?? ''
	expect(secret).toMatch(/^[A-Z2-7]{32,}$/)
	const uri = (await section.getByTestId('totp-uri').getAttribute('href')) ?? ''
	expect(uri.startsWith('otpauth://totp/')).toBe(true)
	expect(new URL(uri).searchParams.get('secret')).toBe(secret)
	// The secret as a QR code that loads under the CSP, and as text that wraps on a phone.
	const qr = section.getByTestId('totp-qr')
	expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
	const qrSvg = Buffer.from(((await qr.getAttribute('src')) ?? '').replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8')
	expect(qrSvg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"[\s\S]*<path[\s\S]*<\/svg>\s*$/)
	await page.setViewportSize({ width: 390, height: 844 })
	const secretBox = section.getByTestId('totp-secret')
	expect(await secretBox.evaluate((code) => code.scrollWidth <= code.clientWidth && document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
	await page.setViewportSize({ width: 1280, height: 800 })
	backupCodes = await section.getByTestId('backup-codes').locator('code').allTextContents()
	expect(backupCodes).toHaveLength(10)

	// A code in the wrong shape, then a wrong code: still not on.
	await section.getByLabel('6-digit code from your app').fill('12ab56')
	await section.getByRole('button', { name: 'Confirm and turn on' }).click()
	await expect(section.getByText('Enter the 6-digit code from your app')).toBeVisible()
	await section.getByLabel('6-digit code from your app').fill(wrongTotp(secret))
	await section.getByRole('button', { name: 'Confirm and turn on' }).click()
	await expect(section.getByText('That code is not right.')).toBeVisible()
	await expect(section.getByTestId('two-factor-status')).toContainText('Not on yet')

	await section.getByLabel('6-digit code from your app').fill(await unusedTotp(secret))
	await section.getByRole('button', { name: 'Confirm and turn on' }).click()
	await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible()
	await expect(section.getByTestId('two-factor-status')).toContainText('On:')
	// Still signed in (better-auth replaced the session), and the secret is never shown again.
	const again = await page.goto(`${store.origin}/account/security`)
	expect(new URL(page.url()).pathname).toBe('/account/security')
	const html = (await again?.text()) ?? ''
	expect(html).not.toContain(secret)
	for (const code of backupCodes) expect(html).not.toContain(code)
})

test('refuses to require two-factor sign-in when the acting admin has not enrolled', async ({ browser }) => {
	const page = await freshPage(browser)
	await passwordStep(page, second.email, second.password)
	await expect(page).toHaveURL(`${store.origin}/admin`)
	await page.goto(`${store.origin}/admin/store`)
	await page.getByLabel('Require two-factor sign-in for administrators').check()
	const response = page.waitForResponse((r) => r.request().method() === 'POST')
	await page.getByRole('button', { name: 'Save' }).click()
	expect((await response).status()).toBe(400)
	await expect(page.getByText('Set up two-factor sign-in for your own account first')).toBeVisible()
	await page.goto(`${store.origin}/admin/store`)
	await expect(page.getByLabel('Require two-factor sign-in for administrators')).not.toBeChecked()
})

test('an enrolled admin switches the requirement on, and the change is audited', async ({ browser }) => {
	const page = await freshPage(browser)
	await signInSeededAdmin(page)
	await page.goto(`${store.origin}/admin/store`)
	await page.getByLabel('Require two-factor sign-in for administrators').check()
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Store profile saved.')).toBeVisible()
	await expect(page.getByLabel('Require two-factor sign-in for administrators')).toBeChecked()
	await page.goto(`${store.origin}/admin/activity`)
	const rows = page.locator('tbody tr', { hasText: 'Store profile saved' })
	await expect(rows.filter({ hasText: store.admin.email })).toHaveCount(1)
	// The refused attempt of the un-enrolled admin changed nothing, so it left no entry either.
	await expect(rows.filter({ hasText: second.email })).toHaveCount(0)
})

test('requires a second factor for a password admin sign-in when the Store requires it; a correct code reaches /admin, once, and its challenge cannot be replayed (ASVS 6.3.3, 6.5.1)', async ({
	browser,
}) => {
	const page = await freshPage(browser)
	await passwordStep(page, store.admin.email, store.admin.password)
	await expect(page).toHaveURL(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
	expect(await hasSession(page)).toBe(false)
	const challenge = (await page.context().cookies()).find((c) => c.name.endsWith('two_factor'))
	expect(challenge?.value).toBeTruthy()

	const code = await unusedTotp(secret)
	expect(await codeStep(page, code)).toBe(302)
	await expect(page).toHaveURL(`${store.origin}/admin`)
	expect(await hasSession(page)).toBe(true)

	// The same code is accepted once (ASVS 6.5.1): at a new challenge it is refused.
	const again = await freshPage(browser)
	await passwordStep(again, store.admin.email, store.admin.password)
	expect(await codeStep(again, code)).toBe(400)
	await expect(again.getByText('That code is not right.')).toBeVisible()

	// The spent challenge cookie, replayed in another browser, is refused: start over.
	const replay = await freshPage(browser)
	if (challenge) await replay.context().addCookies([challenge])
	await replay.goto(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
	await codeStep(replay, totpNow(secret))
	expect(new URL(replay.url()).pathname).toBe('/sign-in')
	await expect(replay.getByText('Please sign in again')).toBeVisible()
	await expectNoAdminSession(replay)
})

test('refuses a wrong or malformed code with 400 and creates no session (ASVS 6.3.3)', async ({ browser }) => {
	const page = await freshPage(browser)
	await passwordStep(page, store.admin.email, store.admin.password)
	expect(await codeStep(page, '12a456')).toBe(400)
	await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible()
	expect(await codeStep(page, '1234567')).toBe(400)
	expect(await codeStep(page, wrongTotp(secret))).toBe(400)
	await expect(page.getByText('That code is not right.')).toBeVisible()
	expect(new URL(page.url()).pathname).toBe('/sign-in/two-factor')
	await expectNoAdminSession(page)
})

test('a backup code reaches /admin once, and the same backup code then fails (ASVS 6.3.3)', async ({ browser }) => {
	const code = backupCodes[0] ?? ''
	const page = await freshPage(browser)
	await passwordStep(page, store.admin.email, store.admin.password)
	expect(await backupStep(page, code)).toBe(302)
	await expect(page).toHaveURL(`${store.origin}/admin`)

	const again = await freshPage(browser)
	await passwordStep(again, store.admin.email, store.admin.password)
	expect(await backupStep(again, code)).toBe(400)
	await expect(again.getByText('That code is not right.')).toBeVisible()
	await expectNoAdminSession(again)
})

/** `count` browsers, each at the code step of its own password sign-in of the seeded admin. */
async function atCodeStep(browser: Browser, count: number) {
	const pages: Page[] = []
	for (let i = 0; i < count; i++) {
		const page = await freshPage(browser)
		await passwordStep(page, store.admin.email, store.admin.password)
		await expect(page).toHaveURL(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
		pages.push(page)
	}
	return pages
}

test('one TOTP code sent from three browsers at the same instant opens one session; the others see the form’s error [R25]', async ({ browser }) => {
	const pages = await atCodeStep(browser, 3)
	const code = await unusedTotp(secret)
	const statuses = await Promise.all(pages.map((page) => codeStep(page, code)))
	expect([...statuses].sort()).toEqual([302, 400, 400])
	const signedIn = await Promise.all(pages.map(hasSession))
	expect(signedIn.filter(Boolean)).toHaveLength(1)
	for (const [index, page] of pages.entries()) {
		if (signedIn[index]) continue
		await expect(page.getByText('That code is not right.')).toBeVisible()
		expect(new URL(page.url()).pathname).toBe('/sign-in/two-factor')
	}
})

test('after better-auth’s attempt limit the code step ends and the user starts over', async ({ browser }) => {
	const page = await freshPage(browser)
	await passwordStep(page, store.admin.email, store.admin.password)
	for (let attempt = 0; attempt < 5; attempt++) expect(await codeStep(page, wrongTotp(secret))).toBe(400)
	// The sixth try finds the challenge ended; afterwards no code can be entered at all.
	await codeStep(page, wrongTotp(secret))
	expect(new URL(page.url()).pathname).toBe('/sign-in')
	await expect(page.getByText('Please sign in again')).toBeVisible()
	await page.goto(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
	expect(new URL(page.url()).pathname).toBe('/sign-in')
	await expectNoAdminSession(page)
	// Signing in again works (and clears the account's failure count).
	await signInSeededAdmin(page)
})

test('POST /api/auth/sign-in/email yields no session without the second factor when the Store requires it (ASVS 6.3.3)', async ({ playwright }) => {
	const client = await playwright.request.newContext({ baseURL: store.origin, extraHTTPHeaders: { origin: store.origin } })
	try {
		const enrolled = await client.post('/api/auth/sign-in/email', { data: { email: store.admin.email, password: store.admin.password } })
		expect(enrolled.status()).toBe(200)
		expect(await enrolled.json()).toMatchObject({ twoFactorRedirect: true })
		expect(await (await client.get('/api/auth/get-session')).json()).toBeNull()

		const unenrolled = await client.post('/api/auth/sign-in/email', { data: { email: second.email, password: second.password } })
		expect(unenrolled.status()).toBe(403)
		expect((await unenrolled.json()).code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED')
		expect(await (await client.get('/api/auth/get-session')).json()).toBeNull()
		const admin = await client.get('/admin', { maxRedirects: 0 })
		expect(admin.status()).toBe(302)
		expect(admin.headers().location).toContain('/sign-in')

		// A forged two_factor cookie is refused by better-auth itself.
		const forged = await client.post('/api/auth/two-factor/verify-totp', {
			data: { code: totpNow(secret) },
			headers: { cookie: 'better-auth.two_factor=2fa-forged.c2lnbmF0dXJl' },
		})
		expect(forged.status()).toBe(401)
	} finally {
		await client.dispose()
	}
})

test('refuses the password sign-in of an admin without enrolment under the requirement, with a message saying what to do (docs/decisions/027)', async ({
	browser,
}) => {
	const page = await freshPage(browser)
	const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in')
	await passwordStep(page, second.email, second.password)
	expect((await response).status()).toBe(403)
	await expect(page.getByText(ENROLMENT_REQUIRED)).toBeVisible()
	await expectNoAdminSession(page)
	// A wrong password still gets the one generic answer.
	await passwordStep(page, second.email, 'not-the-password')
	await expect(page.getByText('Invalid email or password.')).toBeVisible()
})

test('visiting the code step without a challenge redirects to sign-in', async ({ browser }) => {
	const page = await freshPage(browser)
	await page.goto(`${store.origin}/sign-in/two-factor?redirectTo=%2Fadmin`)
	await expect(page).toHaveURL(`${store.origin}/sign-in?redirectTo=%2Fadmin`)
})

test('a managed (SSO) sign-in defers to the provider: no code is asked even when the Store requires it', async ({ browser }) => {
	const page = await freshPage(browser)
	const login = `op-${randomUUID().slice(0, 8)}`
	store.idp.setAccount(login, { email: `${login}@corp.example.com`, roles: ['admin'] })
	await managedSignIn(page, store, login)
	await expect(page).toHaveURL(`${store.origin}/admin`)
	expect(await hasSession(page)).toBe(true)
})
