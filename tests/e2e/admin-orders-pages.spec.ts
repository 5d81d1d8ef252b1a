/**
 * Store Admin's Orders list paged by keys [R142]: "Older" and "Newer" links that carry the
 * number of the Order at the page's edge, with the search and status kept. A store of its own
 * holds 65 Orders (numbers 1001 to 1065), so every page's rows are known.
 */
import { createDb, type Db } from '../../app/data/db.server'
import { seedScale } from '../../scripts/lib/scale-seed'
import { expect, submitSignInForm, test } from './support/fixtures'
import { storeOfThisSpec } from './support/store-process'
import type { Page } from '@playwright/test'

const store = storeOfThisSpec(test)
const ORDERS = 65
let db: Db
let fulfilled: number[] = []

test.beforeAll(async () => {
	db = createDb(store().databaseUrl)
	const { id: storeId } = await db.store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })
	const connection = await db.connection.findFirstOrThrow({ where: { storeId }, select: { id: true } })
	const admin = await db.user.findFirstOrThrow({ where: { email: store().admin.email }, select: { id: true, email: true } })
	await seedScale({ db, storeId, connectionId: connection.id, admin, imageKeys: ['a', 'b', 'c'] }, { products: 6, orders: ORDERS, customers: 5, seed: 11 })
	fulfilled = (await db.order.findMany({ where: { storeId, status: 'fulfilled' }, orderBy: { number: 'desc' }, select: { number: true } })).map((o) => o.number)
})
test.afterAll(async () => {
	await db?.$disconnect()
})

/** The Order numbers the page lists, top to bottom. */
async function numbersOn(page: Page) {
	const cells = await page.locator('table.data-table tbody tr td:first-child a').allTextContents()
	return cells.map((text) => Number(text.replace('#', '')))
}

const run = (from: number, length: number) => Array.from({ length }, (_, i) => from - i)

async function signIn(page: Page, to: string) {
	await page.goto(`${store().origin}/sign-in?redirectTo=${encodeURIComponent(to)}`)
	await submitSignInForm(page, store().admin.email, store().admin.password)
	await expect(page).toHaveURL(`${store().origin}${to}`)
}

for (const javaScriptEnabled of [true, false]) {
	test(`an admin pages down the whole history and back, by keys, ${javaScriptEnabled ? 'with' : 'without'} JavaScript [R142]`, async ({ browser }) => {
		const context = await browser.newContext({ javaScriptEnabled })
		const page = await context.newPage()
		await signIn(page, '/admin/orders')
		const pager = page.getByRole('navigation', { name: 'Pages' })
		await expect.poll(() => numbersOn(page)).toEqual(run(1065, 20))
		await expect(pager).toContainText(`${ORDERS} orders`)
		await expect(pager.getByRole('link', { name: 'Newer' })).toHaveCount(0)

		for (const [from, length] of [
			[1045, 20],
			[1025, 20],
			[1005, 5],
		] as const) {
			await pager.getByRole('link', { name: 'Older' }).click()
			await expect(page).toHaveURL(new RegExp(`\\?before=${from + 1}$`))
			await expect.poll(() => numbersOn(page)).toEqual(run(from, length))
		}
		await expect(pager.getByRole('link', { name: 'Older' })).toHaveCount(0)

		await pager.getByRole('link', { name: 'Newer' }).click()
		await expect(page).toHaveURL(/\?after=1005$/)
		await expect.poll(() => numbersOn(page)).toEqual(run(1025, 20))
		await pager.getByRole('link', { name: 'Newest' }).click()
		await expect(page).toHaveURL(`${store().origin}/admin/orders`)
		await expect.poll(() => numbersOn(page)).toEqual(run(1065, 20))
		await context.close()
	})
}

test('the status filter is kept on every page, and each page holds only its Orders [R142]', async ({ page }) => {
	expect(fulfilled.length).toBeGreaterThan(20)
	await signIn(page, '/admin/orders?status=fulfilled')
	await expect.poll(() => numbersOn(page)).toEqual(fulfilled.slice(0, 20))
	await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Older' }).click()
	await expect(page).toHaveURL(new RegExp(`\\?status=fulfilled&before=${fulfilled[19]}$`))
	await expect.poll(() => numbersOn(page)).toEqual(fulfilled.slice(20, 40))
})

test('a key that is not an Order number opens the newest page; one past the end an empty page that leads back [R142]', async ({ page }) => {
	await signIn(page, '/admin/orders')
	for (const forged of ['?before=abc', '?before=1&after=2', '?after=-4', '?before=99999999999', '?page=3']) {
		const response = await page.goto(`${store().origin}/admin/orders${forged}`)
		expect(response?.status(), forged).toBe(200)
		expect(await numbersOn(page), forged).toEqual(run(1065, 20))
	}
	await page.goto(`${store().origin}/admin/orders?before=1001`)
	await expect(page.getByText('No orders match.')).toBeVisible()
	await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Newer' }).click()
	await expect(page).toHaveURL(/\?after=1001$/)
	await expect.poll(() => numbersOn(page)).toEqual(run(1021, 20))
})

test('the activity log is paged by keys too: every entry once, newest first, down and back [R142]', async ({ page }) => {
	await signIn(page, '/admin/activity')
	const pager = page.getByRole('navigation', { name: 'Pages' })
	const total = Number((await pager.textContent())?.match(/(\d+) entries/)?.[1])
	expect(total).toBeGreaterThan(50)
	const when = () => page.locator('table.data-table tbody tr td:first-child').allTextContents()
	// Each page is opened at the address its predecessor's "Older" link gives (the links' clicks,
	// with and without JavaScript, are the Orders tests' part).
	const older = pager.getByRole('link', { name: 'Older' })
	const first = await when()
	const seen = [...first]
	while ((await older.count()) > 0) {
		const href = (await older.getAttribute('href')) ?? ''
		expect(href).toMatch(/^\/admin\/activity\?before=\d+\.[\w-]+$/)
		await page.goto(`${store().origin}${href}`)
		seen.push(...(await when()))
	}
	expect(seen.length).toBe(total)
	expect([...seen].sort().reverse()).toEqual(seen)
	await pager.getByRole('link', { name: 'Newest' }).click()
	await expect(page).toHaveURL(`${store().origin}/admin/activity`)
	await expect.poll(when).toEqual(first)
})
