import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { RouterContextProvider } from 'react-router'
import { anotherStore, uniqueEmail } from '../../tests/helpers/databases'
import { cookieHeader } from '../../tests/helpers/http'

// The guards read the process-wide client and auth instance: point them at this run's SQLite.
// A worker runs several files in one module registry (vite.config.ts), so this file loads its
// own copies of those modules, made after DATABASE_URL is set, and puts the variable back after.
const savedDatabaseUrl = process.env.DATABASE_URL
process.env.DATABASE_URL = inject('databases').sqlite
process.env.NODE_ENV = 'test'
vi.resetModules()
afterAll(async () => {
	await getDb().$disconnect()
	if (savedDatabaseUrl === undefined) delete process.env.DATABASE_URL
	else process.env.DATABASE_URL = savedDatabaseUrl
	vi.resetModules()
})
const { getAuth } = await import('./auth.server')
const { getDb } = await import('../data/db.server')
const { seedAdmin } = await import('./seed-admin.server')
const { getViewer, requireAdmin, requireUser } = await import('./guards.server')
const { viewerMiddleware } = await import('./viewer.server')

const URL_ADMIN = 'http://localhost:3000/admin/store'

/** Runs `guard` the way React Router does: inside the root middleware, for a request with `cookie`. */
async function run<T>(guard: typeof getViewer | typeof requireUser | typeof requireAdmin, cookie = '', url = URL_ADMIN) {
	const request = new Request(url, { headers: cookie ? { cookie } : {} })
	const context = new RouterContextProvider()
	let result: { value?: T; thrown?: unknown } = {}
	const response = await viewerMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, async () => {
		try {
			result = { value: (await guard({ request, context })) as T }
		} catch (thrown) {
			result = { thrown }
		}
		return new Response('ok')
	})
	return { ...result, response: response as Response }
}

async function signIn(email: string, password: string) {
	const { headers } = await getAuth().api.signInEmail({ body: { email, password }, returnHeaders: true })
	return cookieHeader(headers)
}

async function newCustomer() {
	const email = uniqueEmail()
	const { headers, response } = await getAuth().api.signUpEmail({
		body: { email, password: 'correct horse battery', name: 'Shopper' },
		returnHeaders: true,
	})
	return { cookie: cookieHeader(headers), userId: response.user.id }
}

let adminCookie: string

beforeAll(async () => {
	const email = uniqueEmail('admin')
	await seedAdmin({ db: getDb(), auth: getAuth(), email, password: 'admin password 123' })
	adminCookie = await signIn(email, 'admin password 123')
})

describe('Store Admin guard [R5]', () => {
	it('redirects an unauthenticated request to sign-in, keeping where it was going', async () => {
		const { thrown } = await run(requireAdmin)
		expect(thrown).toBeInstanceOf(Response)
		const response = thrown as Response
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe('/sign-in?redirectTo=%2Fadmin%2Fstore')
	})

	it('answers 403 to a signed-in customer', async () => {
		const { cookie } = await newCustomer()
		const { thrown } = await run(requireAdmin, cookie)
		expect(thrown).toMatchObject({ type: 'DataWithResponseInit', init: { status: 403 } })
	})

	it('lets a Store Admin through, with identity and Store from the session', async () => {
		const { value } = await run<{ role: string; storeId: string }>(requireAdmin, adminCookie)
		const store = await getDb().store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })
		expect(value).toMatchObject({ kind: 'user', role: 'admin', storeId: store.id })
	})

	it('treats a forged session cookie as no session', async () => {
		const forged = adminCookie.replace(/session_token=([^.;]+)\.([^;]+)/, 'session_token=$1.AAAA$2')
		expect(forged).not.toBe(adminCookie)
		const { thrown } = await run(requireAdmin, forged)
		expect((thrown as Response).status).toBe(302)
	})

	it('treats a session minted for another Store as no session', async () => {
		const { cookie, userId } = await newCustomer()
		const other = await anotherStore(getDb())
		await getDb().session.updateMany({ where: { userId }, data: { storeId: other.id } })
		const { value } = await run<{ kind: string }>(getViewer, cookie)
		expect(value?.kind).toBe('guest')
	})

	it('stops a banned user at the door', async () => {
		const { cookie, userId } = await newCustomer()
		await getDb().user.update({ where: { id: userId }, data: { banned: true } })
		const { thrown } = await run(requireUser, cookie, 'http://localhost:3000/account')
		expect((thrown as Response).headers.get('location')).toBe('/sign-in?redirectTo=%2Faccount')
	})
})

describe('guestId cookie [R2] (guests are tracked by guestId)', () => {
	it('sets a signed, HttpOnly guestId on first visit and keeps it afterwards', async () => {
		const first = await run<{ kind: string; guestId: string }>(getViewer)
		const setCookie = first.response.headers.get('set-cookie') ?? ''
		expect(setCookie).toMatch(/^guestId=[^;]+\.[^;]+;/)
		expect(setCookie).toMatch(/HttpOnly/)
		expect(setCookie).toMatch(/SameSite=Lax/)
		const cookie = setCookie.split(';')[0] ?? ''
		const second = await run<{ kind: string; guestId: string }>(getViewer, cookie)
		expect(second.value?.guestId).toBe(first.value?.guestId)
		expect(second.response.headers.get('set-cookie')).toBeNull()
	})

	it('replaces a forged guestId instead of trusting it', async () => {
		const forgedValue = Buffer.from(JSON.stringify('00000000-0000-0000-0000-000000000000')).toString('base64')
		const { value, response } = await run<{ guestId: string }>(getViewer, `guestId=${forgedValue}.bad-signature`)
		expect(value?.guestId).not.toBe('00000000-0000-0000-0000-000000000000')
		expect(response.headers.get('set-cookie')).toMatch(/^guestId=/)
	})
})
