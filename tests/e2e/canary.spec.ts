/**
 * The canary [R13]: a store started with a unique, recognisable value for every secret it can be
 * given, crawled as a guest, a customer and an admin, pushed into its error paths, and then
 * searched. No canary value (nor its base64, url-encoded or JSON-escaped form) may appear in
 * the browser build, in any response (body or header), or anywhere in the server's output.
 * The same run proves the log is structured: JSON lines, a request id on every line a request
 * caused, and at least one error line (so an empty log cannot pass).
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, type APIResponse, expect, request as apiRequest, test } from '@playwright/test'
import pg from 'pg'
import routes from '../../app/routes.ts'
import { stripeEvent, stripeSignature } from '../helpers/events.ts'
import { freePort } from '../helpers/http.ts'
import { IMAGES, multipart } from '../helpers/images.ts'
import { startTestIdp, type TestIdp } from '../helpers/oidc-provider.ts'
import { POSTGRES_ADMIN_URL, createTestDatabase, dropTestDatabase } from '../helpers/postgres.ts'
import { type PrivateRedis, privateRedis } from '../helpers/redis.ts'
import { parseServerLog } from './support/server-log.ts'
import { blockExternalRequests, managedSignIn, PROVIDER_NAME, type SsoStore } from './support/sso-store.ts'
import { type StoreProcess, startStoreProcess } from './support/store-process.ts'
import { GENEROUS_LIMITS } from '../helpers/generous-limits.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const MARKER = `canary${randomBytes(3).toString('hex')}`
/** A value no code, page or library could produce by chance, and that a person reading a leak recognises. */
const canary = (label: string) => `${MARKER}-${label}-${randomBytes(18).toString('base64url')}`

/** Every form a secret could take on its way out: as is, url-encoded, base64, base64url, JSON-escaped. */
function formsOf(secret: string) {
	return [
		...new Set([
			secret,
			encodeURIComponent(secret),
			Buffer.from(secret).toString('base64'),
			Buffer.from(secret).toString('base64url'),
			JSON.stringify(secret).slice(1, -1),
		]),
	]
}

/** Where any form of any secret occurs in `text`: `[secret's name, form, where]`. */
function findCanaries(secrets: Record<string, string>, text: string, where: string) {
	const hits: string[] = []
	for (const [name, secret] of Object.entries(secrets)) {
		for (const form of formsOf(secret)) if (text.includes(form)) hits.push(`${name} (${form === secret ? 'as is' : form}) in ${where}`)
	}
	// The marker alone finds a value cut short or re-encoded in a way the forms above miss.
	if (text.includes(MARKER)) hits.push(`the marker ${MARKER} in ${where}`)
	return hits
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const file = path.join(dir, name)
		return statSync(file).isDirectory() ? filesUnder(file) : [file]
	})
}

/** Route patterns of app/routes.ts, as full paths (`/products/:slug`, `/admin/orders/:number`, `/media/*`). */
function routePatterns(entries: ReadonlyArray<{ path?: string; index?: boolean; children?: unknown }>, parent = ''): string[] {
	return entries.flatMap((entry) => {
		const full = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, '/') : parent || '/'
		const children = (entry.children as typeof entries | undefined) ?? []
		return [...(entry.path !== undefined || entry.index ? [full] : []), ...routePatterns(children, full)]
	})
}
const patternRegex = (pattern: string) => new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+').replace(/\*$/, '.*')}$`)

type Seen = { method: string; url: string; status: number; headers: string; body: string }

const engine = process.env.E2E_DATABASE === 'postgresql' ? 'postgresql' : 'sqlite'
const secrets: Record<string, string> = {
	AUTH_SECRET: `${MARKER}${randomBytes(32).toString('base64url')}`,
	AUTH_SECRET_PREVIOUS: `${MARKER}${randomBytes(32).toString('base64url')}`,
	SVC_ADMIN_OAUTH_CLIENT_SECRET: canary('oauth'),
	SVC_WORKLOAD_CREDENTIAL: canary('workload'),
	STRIPE_SECRET_KEY: `sk_test_${canary('stripe')}`,
	STRIPE_WEBHOOK_SECRET: `whsec_${canary('webhook')}`,
	S3_ACCESS_KEY_ID: canary('s3id'),
	S3_SECRET_ACCESS_KEY: canary('s3secret'),
	EMAIL_SERVICE_API_KEY: canary('email'),
	REDIS_PASSWORD: canary('redis'),
}
if (engine === 'postgresql') secrets.DATABASE_PASSWORD = canary('db')

let store: StoreProcess
let idp: TestIdp
let redis: PrivateRedis
let database: { name: string; role: string } | undefined
const seen: Seen[] = []

async function withPostgresAdmin(run: (client: pg.Client) => Promise<unknown>) {
	const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
	await client.connect()
	try {
		await run(client)
	} finally {
		await client.end()
	}
}

test.describe.configure({ mode: 'serial' })
test.setTimeout(240_000)

test.beforeAll(async () => {
	test.setTimeout(180_000)
	redis = await privateRedis({ password: secrets.REDIS_PASSWORD })
	const [storePort, closedPort] = [await freePort(), await freePort()]
	const origin = `http://127.0.0.1:${storePort}`
	idp = await startTestIdp({
		clientId: 'canary-store',
		clientSecret: secrets.SVC_ADMIN_OAUTH_CLIENT_SECRET!,
		redirectUris: [`${origin}/api/auth/callback/store-sso`],
	})
	let databaseUrl: string | undefined
	if (engine === 'postgresql') {
		// A role of its own whose password is a canary: the one credential a database URL can carry.
		const created = await createTestDatabase('store_canary')
		const role = `canary_${randomBytes(4).toString('hex')}`
		await withPostgresAdmin(async (client) => {
			await client.query(`CREATE ROLE ${role} LOGIN PASSWORD '${secrets.DATABASE_PASSWORD}'`)
			await client.query(`ALTER DATABASE "${created.name}" OWNER TO ${role}`)
		})
		database = { name: created.name, role }
		const url = new URL(created.url)
		url.username = role
		url.password = encodeURIComponent(secrets.DATABASE_PASSWORD!)
		databaseUrl = url.href
	}
	store = await startStoreProcess({
		databaseUrl,
		port: storePort,
		env: {
			AUTH_SECRET: secrets.AUTH_SECRET!,
			AUTH_SECRET_PREVIOUS: secrets.AUTH_SECRET_PREVIOUS!,
			SVC_API_URL: `${idp.issuer}/api`,
			SVC_ADMIN_OAUTH_CLIENT_ID: 'canary-store',
			SVC_ADMIN_OAUTH_CLIENT_SECRET: secrets.SVC_ADMIN_OAUTH_CLIENT_SECRET!,
			SVC_ADMIN_OAUTH_NAME: PROVIDER_NAME,
			SVC_WORKLOAD_CREDENTIAL: secrets.SVC_WORKLOAD_CREDENTIAL!,
			EMAIL_SERVICE_API_KEY: secrets.EMAIL_SERVICE_API_KEY!,
			// Keys init stores (sealed) as the "stripe" Connection; the API answers nothing: a failing provider.
			STRIPE_SECRET_KEY: secrets.STRIPE_SECRET_KEY!,
			STRIPE_WEBHOOK_SECRET: secrets.STRIPE_WEBHOOK_SECRET!,
			STRIPE_API_BASE: `http://127.0.0.1:${closedPort}`,
			// A bucket nobody answers for: every upload fails, and says so in the log.
			UPLOAD_STORAGE: 's3',
			S3_BUCKET: 'canary-bucket',
			S3_ENDPOINT: `http://127.0.0.1:${closedPort}`,
			S3_ACCESS_KEY_ID: secrets.S3_ACCESS_KEY_ID!,
			S3_SECRET_ACCESS_KEY: secrets.S3_SECRET_ACCESS_KEY!,
			REDIS_URL: redis.url,
			RATE_LIMITS: 'on',
			...GENEROUS_LIMITS,
		},
	})
	// The seeded admin's password is a secret of this run too.
	secrets.ADMIN_PASSWORD = store.admin.password
})

test.afterAll(async () => {
	await store?.stop()
	await idp?.close()
	await redis?.kill()
	if (database) {
		await dropTestDatabase(database.name)
		await withPostgresAdmin((client) => client.query(`DROP ROLE IF EXISTS ${database!.role}`))
	}
})

/** Sends a request and keeps what came back (status, every header, the body) for the search. */
async function send(
	client: APIRequestContext,
	method: string,
	url: string,
	options: { headers?: Record<string, string>; data?: string | Buffer; form?: Record<string, string> } = {},
): Promise<APIResponse> {
	const response = await client.fetch(url, { method, maxRedirects: 0, failOnStatusCode: false, ...options })
	const body = method === 'HEAD' ? '' : (await response.body()).toString('utf8')
	seen.push({
		method,
		url,
		status: response.status(),
		headers: response
			.headersArray()
			.map(({ name, value }) => `${name}: ${value}`)
			.join('\n'),
		body,
	})
	return response
}

/** Follows same-origin links from `start` (GET only, never sign-out), up to `limit` pages; returns the paths it read. */
async function crawl(client: APIRequestContext, start: string[], limit = 120) {
	const queue = [...start]
	const visited = new Set<string>()
	while (queue.length > 0 && visited.size < limit) {
		const next = queue.shift()!
		if (visited.has(next)) continue
		visited.add(next)
		const response = await send(client, 'GET', next)
		if (!(response.headers()['content-type'] ?? '').includes('text/html')) continue
		const html = seen.at(-1)!.body
		for (const [, href] of html.matchAll(/href="(\/[^"#]*)"/g)) {
			const link = href!.replaceAll('&amp;', '&')
			if (link.startsWith('/assets/') || link.startsWith('/sign-out') || visited.has(link)) continue
			queue.push(link)
		}
		// The client's data request for the same page (single fetch).
		const pathname = new URL(next, store.origin).pathname
		await send(client, 'GET', `${pathname === '/' ? '/_root' : pathname}.data`)
	}
	return [...visited]
}

/**
 * Like send, for a request the store may cut short (an oversize body): a reset connection is an
 * answer too. On a client of its own, so the closed connection is not reused by the next request.
 */
async function attempt(method: string, url: string, options: Parameters<typeof send>[3] = {}) {
	const client = await apiRequest.newContext({ baseURL: store.origin })
	try {
		await send(client, method, url, options)
	} catch (error) {
		if (!/ECONNRESET|EPIPE|socket hang up/.test((error as Error).message)) throw error
	} finally {
		await client.dispose()
	}
}

const formHeaders = () => ({ Origin: store.origin })
const productIdOf = (html: string) => /name="productId" value="([^"]+)"/.exec(html)?.[1]
const idempotencyKeyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1]
const ADDRESS = { name: 'Canary Buyer', addressLine1: '1 Market Street', addressLine2: '', city: 'Springfield', postalCode: '12345', country: 'US' }

/** Adds the first product it finds to the cart and checks out with `payment`; returns where the store sent the shopper. */
async function checkout(client: APIRequestContext, email: string, payment: string) {
	const home = await send(client, 'GET', '/')
	const product = /href="(\/products\/[^"]+)"/.exec(await home.text())?.[1]
	expect(product, 'the demo catalog has a product').toBeTruthy()
	const page = await send(client, 'GET', product!)
	const html = await page.text()
	const productId = productIdOf(html)
	expect(productId).toBeTruthy()
	// The variant the page offers first (a product of several variants needs one chosen).
	const variantId = /<input(?![^>]*disabled)[^>]*name="variantId"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? ''
	expect(variantId, 'the product page offers a variant').toBeTruthy()
	await send(client, 'POST', '/cart', { form: { intent: 'add', productId: productId!, variantId, quantity: '1' }, headers: formHeaders() })
	const form = await send(client, 'GET', '/checkout')
	const idempotencyKey = idempotencyKeyOf(await form.text())
	expect(idempotencyKey, 'the checkout form renders its key').toBeTruthy()
	const placed = await send(client, 'POST', '/checkout', { form: { email, ...ADDRESS, payment, idempotencyKey: idempotencyKey! }, headers: formHeaders() })
	expect(placed.status(), await placed.text()).toBeGreaterThanOrEqual(300)
	return placed.headers().location ?? ''
}

test('no secret reaches the browser build, a response or the log, and the log is structured [R13]', async ({ page }) => {
	const client = () => apiRequest.newContext({ baseURL: store.origin })
	const guest = await client()
	const customer = await client()
	const admin = await client()
	try {
		// The scanner can fail: a canary written into a scratch string is found, in each form.
		for (const [name, secret] of Object.entries(secrets)) {
			expect(findCanaries({ [name]: secret }, `scratch ${Buffer.from(secret).toString('base64')} text`, 'scratch')).not.toEqual([])
			expect(findCanaries({ [name]: secret }, `scratch ${encodeURIComponent(secret)}`, 'scratch').length).toBeGreaterThan(0)
		}
		expect(findCanaries(secrets, 'nothing here', 'scratch')).toEqual([])

		// A browser loads the storefront (its scripts and data requests included).
		await blockExternalRequests(page)
		page.on('response', async (response) => {
			if (!response.url().startsWith(store.origin)) return
			const body = await response.body().catch(() => Buffer.alloc(0))
			seen.push({
				method: response.request().method(),
				url: response.url(),
				status: response.status(),
				headers: JSON.stringify(await response.allHeaders()),
				body: body.toString('utf8'),
			})
		})
		await page.goto(`${store.origin}/`)
		await page.goto(`${store.origin}/sign-in`)
		await expect(page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` })).toBeVisible()

		// Guest: every page it can reach, and an order paid offline (its confirmation page).
		await crawl(guest, [
			'/',
			'/search?q=canvas',
			'/policies/shipping',
			'/theme.css',
			'/cart',
			'/checkout',
			'/newsletter',
			'/newsletter/unsubscribe',
			'/newsletter/confirm',
			'/sign-in',
			'/sign-up',
			'/forgot-password',
			'/reset-password',
			'/sign-in/sso',
			'/sign-in/two-factor',
			'/no-such-page',
		])
		const guestOrder = await checkout(guest, `guest-${MARKER.slice(-4)}@example.com`, 'offline')
		expect(guestOrder).toMatch(/^\/orders\//)
		await crawl(guest, [guestOrder])
		await send(guest, 'POST', '/newsletter', { form: { email: `news-${randomBytes(3).toString('hex')}@example.com` }, headers: formHeaders() })

		// Customer: registered through the form, an order through the failing provider, every account page.
		const email = `customer-${randomBytes(4).toString('hex')}@example.com`
		const password = `pw-${randomBytes(12).toString('hex')}`
		expect((await send(customer, 'POST', '/sign-up', { form: { name: 'Canary Customer', email, password }, headers: formHeaders() })).status()).toBe(302)
		const paid = await checkout(customer, email, 'stripe')
		expect(paid, 'the failing provider sends the shopper to the confirmation').toMatch(/^\/orders\//)
		await crawl(customer, ['/account', '/account/orders', '/account/password', '/account/security', paid])
		// A wrong current password, and a change that succeeds.
		await send(customer, 'POST', '/account/password', {
			form: { currentPassword: 'not-it-at-all', newPassword: `pw-${randomBytes(12).toString('hex')}` },
			headers: formHeaders(),
		})

		// Admin: the seeded one, by password; then every Store Admin page.
		expect(
			(
				await send(admin, 'POST', '/sign-in', { form: { email: store.admin.email, password: store.admin.password, redirectTo: '' }, headers: formHeaders() })
			).status(),
		).toBe(302)
		await crawl(
			admin,
			[
				'/admin',
				'/admin/store',
				'/admin/activity',
				'/admin/email',
				'/admin/newsletter',
				'/admin/newsletter/export?state=pending',
				'/admin/reviews',
				'/admin/reviews?status=approved',
				'/admin/products',
				'/admin/products/new',
				'/admin/collections',
				'/admin/customers',
				'/admin/orders',
				'/admin/orders/export.csv',
				'/admin/products/export.csv',
				'/admin/uploads',
				'/admin/events',
				'/admin/connections',
			],
			200,
		)
		// A collection, its admin page (the redirect after creating it) and its storefront page.
		const collectionSlug = `canary-${randomBytes(3).toString('hex')}`
		const created = await send(admin, 'POST', '/admin/collections', {
			form: { title: 'Canary picks', slug: collectionSlug, description: '' },
			headers: formHeaders(),
		})
		const collectionPage = created.headers().location ?? ''
		expect(collectionPage).toMatch(/^\/admin\/collections\/[A-Za-z0-9_-]+$/)
		await crawl(admin, [collectionPage])
		await crawl(guest, ['/collections', `/collections/${collectionSlug}`])
		// An upload to the bucket that does not answer: refused, logged, nothing kept.
		const upload = multipart([{ name: 'file', filename: 'canary.png', type: 'image/png', body: IMAGES.png }])
		const refusedUpload = await send(admin, 'POST', '/api/upload', { headers: { 'content-type': upload.contentType, Origin: store.origin }, data: upload.body })
		expect(refusedUpload.status()).toBeGreaterThanOrEqual(500)
		await send(admin, 'GET', '/media/stores/none/uploads/none.png')

		// Managed sign-in through the provider: the client secret is used for the code exchange.
		idp.setAccount('canary-admin', {
			email: `sso-${randomBytes(3).toString('hex')}@example.com`,
			roles: ['admin'],
			grantedScopes: ['openid', 'profile', 'email', 'store:admin'],
		})
		await managedSignIn(page, { origin: store.origin, idp } as SsoStore, 'canary-admin')
		await page.waitForURL((url) => url.origin === store.origin, { timeout: 30_000 })

		// The error paths.
		const json = { 'content-type': 'application/json', Origin: store.origin }
		for (const endpoint of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/change-password', '/api/auth/two-factor/verify-totp']) {
			await send(guest, 'POST', endpoint, { headers: json, data: '{"email": "broken' })
			await attempt('POST', endpoint, { headers: json, data: JSON.stringify({ email: 'x@example.com', password: 'y'.repeat(40_000) }) })
		}
		await attempt('POST', '/sign-in', {
			headers: { 'content-type': 'application/x-www-form-urlencoded', Origin: store.origin },
			data: `email=a%40b.c&password=${'p'.repeat(200_000)}`,
		})
		await send(guest, 'POST', '/sign-in', { form: { email: store.admin.email, password: 'wrong-password-entirely' }, headers: formHeaders() })
		await send(guest, 'GET', '/api/auth/get-session')
		const forged = [
			'better-auth.session_token=forged.c2lnbmF0dXJl',
			'guestId=eyJmb3JnZWQiOnRydWV9.bad; better-auth.session_token=%E0%A4%A',
			`better-auth.session_token=${'A'.repeat(4000)}`,
			'better-auth.two_factor=forged.value; better-auth.session_data=garbage',
		]
		for (const cookie of forged) {
			for (const path of ['/', '/cart', '/account', '/admin', '/sign-in/two-factor', '/api/auth/get-session'])
				await send(guest, 'GET', path, { headers: { cookie } })
			await send(guest, 'POST', '/cart', { form: { intent: 'add', productId: 'nope', quantity: '1' }, headers: { cookie, Origin: store.origin } })
		}
		// A real session cookie with its signature broken.
		const session = (await admin.storageState()).cookies.find((cookie) => cookie.name.endsWith('session_token'))
		expect(session).toBeTruthy()
		await send(guest, 'GET', '/admin', { headers: { cookie: `${session!.name}=${session!.value.slice(0, -3)}xyz` } })
		// The workload credential where it is refused: a header, the query, the path.
		await send(guest, 'GET', '/', { headers: { authorization: `Bearer ${secrets.SVC_WORKLOAD_CREDENTIAL}` } })
		await send(guest, 'GET', `/?token=${encodeURIComponent(secrets.SVC_WORKLOAD_CREDENTIAL!)}`)
		await send(guest, 'GET', `/products/${encodeURIComponent(secrets.SVC_WORKLOAD_CREDENTIAL!)}`)
		// Provider events: none, a forged signature, an unknown Connection, a signed one the store ignores, a malformed signed body.
		const event = stripeEvent('customer.created', { id: 'cus_canary' })
		await send(guest, 'POST', '/api/events/stripe', { headers: { 'content-type': 'application/json' }, data: event })
		await send(guest, 'POST', '/api/events/stripe', {
			headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=00` },
			data: event,
		})
		await send(guest, 'POST', '/api/events/no-such-connection', { headers: { 'content-type': 'application/json' }, data: '{}' })
		await send(guest, 'POST', '/api/events/stripe', {
			headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(event, secrets.STRIPE_WEBHOOK_SECRET!) },
			data: event,
		})
		await send(guest, 'POST', '/api/events/stripe', {
			headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature('{"id":', secrets.STRIPE_WEBHOOK_SECRET!) },
			data: '{"id":',
		})
		await attempt('POST', '/api/events/stripe', { headers: { 'content-type': 'application/json' }, data: Buffer.alloc(2 * 1024 * 1024, 'a') })
		// A malformed URL and a method no route serves.
		await send(guest, 'GET', '/products/%E0%A4%A')
		await send(guest, 'DELETE', '/cart', { headers: formHeaders() })
		await send(guest, 'GET', '/healthz')
		await send(guest, 'GET', '/readyz')
		// Redis goes away: the limiter and the cache say so in the log, with the URL's password nowhere.
		await redis.kill()
		await expect.poll(() => store.stderr(), { timeout: 10_000 }).toContain('[rate-limit] Redis unavailable')
		await send(guest, 'GET', '/')
		await send(guest, 'GET', '/readyz')

		// Signing out, last, so the sessions above stayed usable.
		await send(customer, 'GET', '/sign-out')
		await send(customer, 'POST', '/sign-out', { headers: formHeaders() })

		// Every route of the route table was asked at least once.
		const asked = seen.map((answer) => new URL(answer.url, store.origin).pathname)
		const missed = routePatterns(routes).filter((pattern) => !asked.some((pathname) => patternRegex(pattern).test(pathname)))
		expect(missed, 'routes no request reached').toEqual([])
	} finally {
		await Promise.all([guest.dispose(), customer.dispose(), admin.dispose()])
	}

	// The search: the browser build, every response, the whole server output.
	const hits: string[] = []
	for (const file of filesUnder(path.join(root, 'build/client'))) hits.push(...findCanaries(secrets, readFileSync(file, 'latin1'), path.relative(root, file)))
	for (const answer of seen)
		hits.push(...findCanaries(secrets, `${answer.headers}\n${answer.body}`, `the answer to ${answer.method} ${answer.url.slice(0, 80)} (${answer.status})`))
	await new Promise((resolve) => setTimeout(resolve, 500))
	const output = `${store.stdout()}\n${store.stderr()}`
	hits.push(...findCanaries(secrets, output, 'the server output'))
	expect(hits).toEqual([])
	expect(seen.length).toBeGreaterThan(200)

	// The log is structured: every line the server (not init) wrote is JSON; request lines carry the id the answer echoed.
	const lines = parseServerLog(output)
	const notJson = lines.filter((line) => !line.json && !line.msg.startsWith('[init]'))
	expect(notJson.map((line) => line.msg)).toEqual([])
	const requestLines = lines.filter((line) => line.json && line.msg === 'request')
	expect(requestLines.length).toBeGreaterThan(200)
	for (const line of requestLines) expect(line.reqId, JSON.stringify(line)).toMatch(/^[A-Za-z0-9._-]{1,128}$/)
	const refusal = lines.find((line) => line.msg.startsWith('[store] 400 GET /products/'))
	expect(refusal?.reqId, 'a line logged while handling a request carries its id').toBeTruthy()
	expect(requestLines.some((line) => line.reqId === refusal!.reqId && line.status === 400)).toBe(true)
	const errors = lines.filter((line) => line.json && (line.level ?? 0) >= 50)
	expect(errors.map((line) => line.msg)).toContain('[payment] could not be started')
	expect(errors.filter((line) => typeof line.reqId !== 'string').map((line) => JSON.stringify(line).slice(0, 600))).toEqual([])
})
