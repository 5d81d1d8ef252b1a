/**
 * POST /api/upload over HTTP ([R34] Store Admin access, magic bytes, size limits,
 * risky SVG; [R33] ownership checked on every read), against the built server.
 */
import { rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import type { APIRequestContext, Browser, request as apiRequest } from '@playwright/test'
import { IMAGES, multipart, pngOfSize } from '../helpers/images.ts'
import { filesUnder, mountTmpfs } from '../helpers/upload-storage.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, serverOrigin, signIn, signUp, test } from './support/fixtures.ts'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'

type Stored = { key: string; url: string; contentType: string; size: number }

function filePart(name: string, buffer: Buffer, mimeType = 'application/octet-stream') {
	return { name, mimeType, buffer }
}

test('an admin uploads each allowed image type and gets keys and URLs back [R34]', async ({ request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const response = await request.post('/api/upload', {
		multipart: { file: filePart('photo.png', IMAGES.png, 'image/png') },
	})
	expect(response.status()).toBe(201)
	const { objects } = (await response.json()) as { objects: Stored[] }
	expect(objects).toHaveLength(1)
	expect(objects[0]?.key).toMatch(/^stores\/[^/]+\/uploads\/[0-9a-f]{32}\.png$/)
	expect(objects[0]?.key).not.toContain('photo')

	// Several parts named file in one request (built by hand: the client folds repeated names).
	const { body, contentType } = multipart(
		Object.entries(IMAGES).map(([ext, bytes]) => ({ name: 'file', filename: `x.${ext}`, type: 'text/plain', body: bytes })),
	)
	const many = await request.post('/api/upload', { data: body, headers: { 'content-type': contentType } })
	expect(many.status()).toBe(201)
	const stored = ((await many.json()) as { objects: Stored[] }).objects
	expect(stored.map((o) => o.contentType)).toEqual(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif', 'image/svg+xml'])

	for (const object of stored) {
		const served = await request.get(object.url)
		expect(served.status(), object.key).toBe(200)
		expect(served.headers()['content-type']).toBe(object.contentType)
		expect(served.headers()['x-content-type-options']).toBe('nosniff')
		expect(served.headers()['content-security-policy']).toContain('sandbox')
		const ext = object.key.split('.').pop() as keyof typeof IMAGES
		if (ext === 'svg') expect((await served.body()).toString()).toContain('<rect')
		else expect(Buffer.compare(await served.body(), IMAGES[ext])).toBe(0)
	}
})

test('bad files are refused with a clear 4xx and nothing is stored [R34]', async ({ request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const cases: Array<[string, Record<string, ReturnType<typeof filePart> | string>, number]> = [
		['HTML bytes named .png', { file: filePart('cat.png', Buffer.from('<html><script>alert(1)</script>'), 'image/png') }, 415],
		[
			'a hostile SVG',
			{ file: filePart('x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/a)"/></svg>'), 'image/svg+xml') },
			415,
		],
		['an entity-declaring SVG', { file: filePart('x.svg', Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>')) }, 415],
		['a file over 5 MB', { file: filePart('big.png', pngOfSize(5 * 1024 * 1024 + 1), 'image/png') }, 413],
		['a storeId field', { file: filePart('a.png', IMAGES.png), storeId: 'another-store' }, 400],
	]
	for (const [what, multipartBody, status] of cases) {
		const response = await request.post('/api/upload', { multipart: multipartBody })
		expect(response.status(), what).toBe(status)
		const body = (await response.json()) as { code: string; message: string }
		expect(body.message.length, what).toBeGreaterThan(0)
	}
	const tooMany = multipart(Array.from({ length: 11 }, () => ({ name: 'file', filename: 'a.png', body: IMAGES.png })))
	const response = await request.post('/api/upload', { data: tooMany.body, headers: { 'content-type': tooMany.contentType } })
	expect(response.status()).toBe(413)
	const json = await request.post('/api/upload', { data: { file: 'x' } })
	expect(json.status()).toBe(415)
})

/**
 * Declares a large body, sends its first 64 KiB, then waits for the answer: a server that
 * answers now has decided before reading the body (it has 64 KiB of what it was promised).
 */
function sendLargeBody(path: string, cookie: string, megabytes: number) {
	return new Promise<{ status: number; elapsedMs: number; bytesSent: number }>((resolve, reject) => {
		const started = Date.now()
		const url = new URL(path, serverOrigin())
		const chunk = Buffer.alloc(64 * 1024, 1)
		const req = httpRequest(
			{
				host: url.hostname,
				port: url.port,
				path: url.pathname,
				method: 'POST',
				headers: {
					cookie,
					origin: serverOrigin(),
					'content-type': 'multipart/form-data; boundary=xyz',
					'content-length': String(megabytes * 1024 * 1024),
				},
			},
			(res) => {
				res.resume()
				resolve({ status: res.statusCode ?? 0, elapsedMs: Date.now() - started, bytesSent: chunk.length })
				req.destroy()
			},
		)
		req.on('error', (error) => {
			if (!req.destroyed) reject(error)
		})
		req.write(chunk)
		setTimeout(() => {
			req.destroy()
			reject(new Error('the server did not answer before the body was sent'))
		}, 10_000).unref()
	})
}

test('signed-out callers and customers are refused before the body is read [R34]', async ({ playwright }) => {
	// Signed out: a declared 200 MB body gets 401 with 64 KiB of it sent.
	const anonymous = await sendLargeBody('/api/upload', '', 200)
	expect(anonymous.status).toBe(401)
	expect(anonymous.bytesSent).toBeLessThan(200 * 1024 * 1024)

	const customer = await playwright.request.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
	await signUp(customer)
	const cookie = (await customer.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ')
	const refused = await sendLargeBody('/api/upload', cookie, 200)
	expect(refused.status).toBe(403)
	expect(refused.bytesSent).toBeLessThan(200 * 1024 * 1024)
	const small = await customer.post('/api/upload', { multipart: { file: filePart('a.png', IMAGES.png) } })
	expect(small.status()).toBe(403)
	await customer.dispose()
})

test('objects are read through ownership checks: guessed, foreign and traversal keys get 404 [R33]', async ({ request, playwright }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	const response = await request.post('/api/upload', { multipart: { file: filePart('a.png', IMAGES.png) } })
	const [object] = ((await response.json()) as { objects: Stored[] }).objects
	const storeId = object!.key.split('/')[1]

	const stranger = await playwright.request.newContext({ baseURL: serverOrigin() })
	// Not attached to an active Product: only admins may read it.
	expect((await stranger.get(object!.url)).status()).toBe(404)
	for (const path of [
		`/media/stores/${storeId}/uploads/${'0'.repeat(32)}.png`,
		`/media/stores/another-store/uploads/${object!.key.split('/').pop()}`,
		`/media/stores/${storeId}/uploads/..%2F..%2F..%2Fpackage.json`,
		'/media/%2e%2e/%2e%2e/package.json',
		'/media/..%2f..%2f.env',
		`/media/${encodeURIComponent('/etc/passwd')}`,
	]) {
		expect((await request.get(path)).status(), path).toBe(404)
	}
	await stranger.dispose()

	// Delete: a customer cannot, the admin can, and afterwards nobody reads it.
	const customer = await playwright.request.newContext({ baseURL: serverOrigin(), extraHTTPHeaders: { Origin: serverOrigin() } })
	await signUp(customer)
	expect((await customer.delete(object!.url, { maxRedirects: 0 })).status()).toBe(403)
	await customer.dispose()
	expect((await request.delete(object!.url)).status()).toBe(204)
	expect((await request.get(object!.url)).status()).toBe(404)
})

test('the activity log lists the admin’s uploads and profile edits', async ({ page, request }) => {
	await signIn(request, ADMIN_EMAIL, ADMIN_PASSWORD)
	await request.post('/api/upload', { multipart: { file: filePart('a.png', IMAGES.png) } })
	await signIn(page.request, ADMIN_EMAIL, ADMIN_PASSWORD)
	await page.goto('/admin/activity')
	await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible()
	await expect(page.getByRole('cell', { name: 'File uploaded' }).first()).toBeVisible()
	await expect(page.getByRole('cell', { name: ADMIN_EMAIL }).first()).toBeVisible()
})

/**
 * Storage failures over HTTP [R34], against a store of this spec's own whose upload folder is
 * a small tmpfs: genuinely full, then genuinely read-only. The API answers in the one JSON
 * shape, the admin form shows a message (with and without JavaScript), nothing is kept.
 */
test.describe('when the upload storage fails', () => {
	test.describe.configure({ mode: 'serial' })
	let store: StoreProcess
	let folder: ReturnType<typeof mountTmpfs>
	/** What init stored before the test: the demo products' images. */
	let demo: string[]
	const kept = (...more: string[]) => [...demo, ...more].sort()

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		folder = mountTmpfs('256k')
		store = await startStoreProcess({ env: { UPLOAD_DIR: folder.dir } })
		demo = filesUnder(folder.dir)
	})
	test.afterAll(async () => {
		await store?.stop()
		folder?.unmount()
	})

	async function adminApi(playwright: { request: { newContext: typeof apiRequest.newContext } }) {
		const api = await playwright.request.newContext({ baseURL: store.origin, extraHTTPHeaders: { Origin: store.origin } })
		const signedIn = await api.post('/sign-in', { form: { email: store.admin.email, password: store.admin.password, redirectTo: '' }, maxRedirects: 0 })
		expect(signedIn.status()).toBe(302)
		return api
	}

	const twoFiles = () =>
		multipart([
			{ name: 'file', filename: 'small.png', body: pngOfSize(16 * 1024) },
			{ name: 'file', filename: 'large.png', body: pngOfSize(100 * 1024) },
		])

	/** Submits two images through the admin form in a browser, with or without JavaScript. */
	async function submitForm(browser: Browser, api: APIRequestContext, javaScriptEnabled: boolean) {
		const context = await browser.newContext({ baseURL: store.origin, javaScriptEnabled, storageState: await api.storageState() })
		const page = await context.newPage()
		await page.goto('/admin/uploads')
		await page.locator('#field-file').setInputFiles([
			{ name: 'small.png', mimeType: 'image/png', buffer: pngOfSize(16 * 1024) },
			{ name: 'large.png', mimeType: 'image/png', buffer: pngOfSize(100 * 1024) },
		])
		const answer = page.waitForResponse((response) => response.request().method() === 'POST')
		await page.getByRole('button', { name: 'Upload' }).click()
		const status = (await answer).status()
		const alert = (await page.getByRole('alert').first().textContent()) ?? ''
		// Without JavaScript the answer is the document itself: its message can be in the page
		// while the list below it is still arriving, so the list is counted once it has loaded.
		await page.waitForLoadState('load')
		const shown = {
			status,
			alert,
			heading: await page.getByRole('heading', { level: 1 }).textContent(),
			uploads: await page.locator('.upload-grid li').count(),
		}
		await context.close()
		return shown
	}

	test('a full folder: 507 STORAGE_FULL in the one JSON shape, a message on the form, nothing kept [R34]', async ({ playwright, browser }) => {
		const api = await adminApi(playwright)
		folder.fillLeaving(64 * 1024)
		const { body, contentType } = twoFiles()
		const response = await api.post('/api/upload', { data: body, headers: { 'content-type': contentType } })
		expect(response.status()).toBe(507)
		const json = (await response.json()) as Record<string, string>
		expect(Object.keys(json).sort()).toEqual(['code', 'message'])
		expect(json.code).toBe('STORAGE_FULL')
		expect(filesUnder(folder.dir)).toEqual(kept('filler.bin'))

		for (const javaScriptEnabled of [true, false]) {
			const shown = await submitForm(browser, api, javaScriptEnabled)
			// Without JavaScript the document itself answers 507; with it, the data request does.
			expect(shown.status, `JavaScript ${javaScriptEnabled}`).toBe(507)
			expect(shown.alert, `JavaScript ${javaScriptEnabled}`).toContain('The upload storage is full')
			expect(shown.heading).toBe('Uploads')
			expect(shown.uploads).toBe(demo.length)
			expect(filesUnder(folder.dir)).toEqual(kept('filler.bin'))
		}
		await api.dispose()
	})

	test('a read-only folder: 503 STORAGE_UNAVAILABLE with Retry-After, a message on the form, nothing kept [R34]', async ({ playwright, browser }) => {
		const api = await adminApi(playwright)
		rmSync(join(folder.dir, 'filler.bin'), { force: true })
		folder.readOnly()
		try {
			const { body, contentType } = twoFiles()
			const response = await api.post('/api/upload', { data: body, headers: { 'content-type': contentType } })
			expect(response.status()).toBe(503)
			expect(response.headers()['retry-after']).toMatch(/^\d+$/)
			expect(await response.json()).toMatchObject({ code: 'STORAGE_UNAVAILABLE', message: expect.stringContaining('cannot be written') })
			for (const javaScriptEnabled of [true, false]) {
				const shown = await submitForm(browser, api, javaScriptEnabled)
				expect(shown.status, `JavaScript ${javaScriptEnabled}`).toBe(503)
				expect(shown.alert, `JavaScript ${javaScriptEnabled}`).toContain('cannot be written right now')
				expect(shown.uploads).toBe(demo.length)
			}
		} finally {
			folder.readWrite()
		}
		expect(filesUnder(folder.dir)).toEqual(kept())
		// Writable again: the same request is stored whole.
		const { body, contentType } = twoFiles()
		const stored = await api.post('/api/upload', { data: body, headers: { 'content-type': contentType } })
		expect(stored.status()).toBe(201)
		expect(filesUnder(folder.dir)).toHaveLength(demo.length + 2)
		await api.dispose()
	})
})
