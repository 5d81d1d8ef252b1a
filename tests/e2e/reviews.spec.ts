/**
 * Product reviews, the first Module [R31] [R32], as shoppers and the operator meet them in
 * Chromium with JavaScript and without: only a customer whose payment arrived may review, once;
 * a review shows (as text) after Store Admin approves it; bad input, a guest, a second review and
 * another customer's review id are refused with nothing changed.
 */
import { asAdmin, expect, placeOrder, serverOrigin, signUp, test } from './support/fixtures.ts'

const PRODUCT = '/products/field-notebook'

const review = (fields: Record<string, string>) => ({ intent: 'review', rating: '4', title: 'Fine paper', body: 'Takes fountain pen ink.', ...fields })

for (const javaScriptEnabled of [true, false]) {
	test.describe(`reviews with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a buyer reviews once the payment arrived; the review shows after approval, as text [R31]', async ({ page, customer, browser }) => {
			test.setTimeout(90_000)
			await page.goto(PRODUCT)
			await expect(page.getByTestId('review-eligibility')).toContainText('bought this product')
			const number = String(await placeOrder(page, 'field-notebook', customer.email))
			// Placed but not paid: still no form.
			await page.goto(PRODUCT)
			await expect(page.getByTestId('review-eligibility')).toBeVisible()

			const paid = await asAdmin(browser, javaScriptEnabled, `/admin/orders/${number}`)
			await paid.admin.getByRole('button', { name: 'Mark paid' }).click()
			await expect(paid.admin.getByTestId('flash')).toHaveText('Order marked paid.')
			await paid.close()

			const title = `<script>alert(1)</script> ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`
			await page.goto(PRODUCT)
			await page.getByLabel('Rating').selectOption('4')
			await page.getByLabel('Title').fill(title)
			await page.getByLabel('Review', { exact: true }).fill('Takes fountain pen ink without bleeding.')
			await page.getByRole('button', { name: 'Submit review' }).click()
			await expect(page.getByTestId('flash')).toContainText('will appear once the shop has read it')
			await expect(page.getByTestId('my-review-status')).toHaveText('Waiting for the shop to read it.')
			await expect(page.getByTestId('review').filter({ hasText: title })).toHaveCount(0)

			// A second review of the same product, bad input, a stranger's edit and a guest: refused, nothing changed.
			const post = (form: Record<string, string>, request = page.request) =>
				request.post(PRODUCT, { form, headers: { origin: serverOrigin() }, maxRedirects: 0 })
			expect((await post(review({}))).status()).toBe(409)
			expect((await post(review({ rating: '9' }))).status()).toBe(400)
			expect((await post(review({ title: 'x'.repeat(121) }))).status()).toBe(400)
			expect((await post(review({ body: '' }))).status()).toBe(400)
			expect((await post(review({ storeId: 'another-store' }))).status()).toBe(400)
			const reviewId = await page.locator('input[name="reviewId"]').getAttribute('value')
			expect(reviewId).toBeTruthy()
			const stranger = await browser.newContext()
			await signUp(stranger.request)
			expect((await post(review({ reviewId: reviewId!, title: 'Hijacked' }), stranger.request)).status()).toBe(404)
			expect((await post(review({}), stranger.request)).status()).toBe(403)
			await stranger.close()
			const guest = await browser.newContext()
			expect((await post(review({}), guest.request)).status()).toBe(403)
			await guest.close()
			expect((await post(review({}))).status()).toBe(409)
			await page.reload()
			await expect(page.getByLabel('Title')).toHaveValue(title)

			// The operator approves it: it shows, as the text it is, with the average and count.
			const moderation = await asAdmin(browser, javaScriptEnabled, '/admin/reviews')
			const row = moderation.admin.locator('tr', { hasText: title })
			await row.getByRole('button', { name: 'Approve' }).click()
			await expect(moderation.admin.getByTestId('flash')).toContainText('Review approved')
			await moderation.admin.goto('/admin/activity')
			await expect(moderation.admin.getByRole('cell', { name: 'Review approved' }).first()).toBeVisible()
			await moderation.close()

			await page.goto(PRODUCT)
			await expect(page.getByTestId('review').filter({ hasText: title })).toBeVisible()
			await expect(page.getByTestId('review-summary')).toContainText('out of 5')
			expect(await page.locator('script', { hasText: 'alert(1)' }).count()).toBe(0)

			// Editing it sends it back to the shop: it leaves the page until approved again.
			await page.getByLabel('Title').fill(`${title} (edited)`)
			await page.getByRole('button', { name: 'Update review' }).click()
			await expect(page.getByTestId('flash')).toContainText('Your review is updated')
			await expect(page.getByTestId('review').filter({ hasText: title })).toHaveCount(0)
		})
	})
}

test('a customer reaches no review moderation, and an unknown review id is a 404 for the admin', async ({ page, customer, browser }) => {
	expect(customer.email).toBeTruthy()
	expect((await page.goto('/admin/reviews'))?.status()).toBe(403)
	const refused = await page.request.post('/admin/reviews', {
		form: { intent: 'delete', id: 'anything' },
		headers: { origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(refused.status()).toBe(403)
	const { admin, close } = await asAdmin(browser, true, '/admin/reviews')
	const unknown = await admin.request.post('/admin/reviews', {
		form: { intent: 'approve', id: 'no-such-review' },
		headers: { origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(unknown.status()).toBe(404)
	const bad = await admin.request.post('/admin/reviews', { form: { intent: 'publish', id: 'x' }, headers: { origin: serverOrigin() }, maxRedirects: 0 })
	expect(bad.status()).toBe(400)
	await close()
})
