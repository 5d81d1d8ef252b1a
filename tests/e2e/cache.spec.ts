/**
 * the Store profile, the catalog and the cart count are kept in memory, and an admin's
 * edit shows on every page at once: in the process that saved it, and in a second process
 * sharing the database and Redis (its cached copy would otherwise live 30 s).
 */
import { expect, test } from '@playwright/test'
import { cookieHeader } from '../helpers/http.ts'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'

test.describe.configure({ mode: 'serial' })

const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379'
const PAGES = ['/', '/products/canvas-tote', '/cart', '/newsletter']

let one: StoreProcess
let two: StoreProcess

test.beforeAll(async () => {
	test.setTimeout(180_000)
	one = await startStoreProcess({ env: { REDIS_URL } })
	two = await startStoreProcess({ env: { REDIS_URL }, share: one })
})
test.afterAll(async () => {
	await two?.stop()
	await one?.stop()
})

async function html(origin: string, path: string, cookie = '') {
	const response = await fetch(`${origin}${path}`, { headers: { cookie }, redirect: 'manual' })
	return { status: response.status, text: await response.text(), cookie: cookieHeader(response.headers) }
}

async function post(origin: string, path: string, fields: Record<string, string>, cookie = '') {
	const response = await fetch(`${origin}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin, cookie },
		body: new URLSearchParams(fields),
	})
	return { status: response.status, cookie: cookieHeader(response.headers), location: response.headers.get('location') }
}

async function signInAdmin(store: StoreProcess) {
	const signedIn = await post(store.origin, '/sign-in', { email: store.admin.email, password: store.admin.password })
	expect(signedIn.status).toBe(302)
	return signedIn.cookie
}

const headerName = (text: string) => /class="brand"[^>]*>([^<]*)</.exec(text)?.[1]

test('a Store profile edit shows on every page at once, here and in a second process sharing Redis', async () => {
	const before = headerName((await html(one.origin, '/')).text)
	expect(before).toBeTruthy()
	// Both processes have read (and kept) the old profile.
	for (const store of [one, two]) {
		for (const path of PAGES) expect(headerName((await html(store.origin, path)).text), `${store.origin}${path}`).toBe(before)
	}
	const admin = await signInAdmin(one)
	const name = `Renamed ${Date.now()}`
	expect((await post(one.origin, '/admin/store', { name }, admin)).status).toBe(302)

	for (const path of PAGES) expect(headerName((await html(one.origin, path)).text), `saving process ${path}`).toBe(name)
	// The other process hears of it over Redis: milliseconds, never its 30 s time to live.
	await expect.poll(() => html(two.origin, '/').then((page) => headerName(page.text)), { timeout: 3_000 }).toBe(name)
	for (const path of PAGES) expect(headerName((await html(two.origin, path)).text), `second process ${path}`).toBe(name)
})

test('unpublishing a Product removes it from both processes’ catalog and product page at once', async () => {
	for (const store of [one, two]) {
		expect((await html(store.origin, '/products/canvas-tote')).status).toBe(200)
		expect((await html(store.origin, '/')).text).toContain('/products/canvas-tote')
	}
	const productId = /name="productId" value="([^"]+)"/.exec((await html(one.origin, '/products/canvas-tote')).text)?.[1]
	expect(productId).toBeTruthy()
	const admin = await signInAdmin(one)
	expect((await post(one.origin, `/admin/products/${productId}?intent=unpublish`, {}, admin)).status).toBe(302)

	expect((await html(one.origin, '/products/canvas-tote')).status).toBe(404)
	expect((await html(one.origin, '/')).text).not.toContain('/products/canvas-tote')
	await expect.poll(() => html(two.origin, '/products/canvas-tote').then((page) => page.status), { timeout: 3_000 }).toBe(404)
	expect((await html(two.origin, '/')).text).not.toContain('/products/canvas-tote')
})

test('the cart count in the header follows every change to the cart', async () => {
	const first = await html(one.origin, '/products/enamel-mug')
	const cookie = first.cookie
	const productId = /name="productId" value="([^"]+)"/.exec(first.text)?.[1] ?? ''
	const count = async () => {
		const span = /data-testid="cart-count"[^>]*>(.*?)<\/span>/.exec((await html(one.origin, '/', cookie)).text)?.[1] ?? ''
		return /\d+/.exec(span.replace(/<!-- -->/g, ''))?.[0] ?? '0'
	}
	expect(await count()).toBe('0')
	expect((await post(one.origin, '/cart', { intent: 'add', productId, quantity: '2' }, cookie)).status).toBe(302)
	expect(await count()).toBe('2')
	expect((await post(one.origin, '/cart', { intent: 'add', productId, quantity: '1' }, cookie)).status).toBe(302)
	expect(await count()).toBe('3')
})
