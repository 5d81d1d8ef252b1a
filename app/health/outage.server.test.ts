import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { databaseOutageMiddleware, noteOutage } from './outage.server'

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })

/** Runs the middleware over a route that answered `status` (React Router's 500 for a thrown error). */
async function answer({
	path = '/products/x',
	accept = 'text/html',
	status = 500,
	error,
}: {
	path?: string
	accept?: string
	status?: number
	error?: unknown
}) {
	const context = new RouterContextProvider()
	const request = new Request(`http://store.test${path}`, { headers: { accept } })
	const next = async () => {
		if (error) noteOutage(error, context)
		return new Response('route said so', { status })
	}
	return (await databaseOutageMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, next as never)) as Response
}

describe('a route that failed on the database away [R124]', () => {
	it('answers 503 with Retry-After and a page that says the store is briefly unavailable [R124]', async () => {
		const response = await answer({ error: refused })
		expect(response.status).toBe(503)
		expect(response.headers.get('retry-after')).toBe('5')
		expect(response.headers.get('cache-control')).toBe('no-store')
		expect(await response.text()).toMatch(/briefly unavailable/)
	})

	it('answers JSON { code, message } to an API or a data request [R124]', async () => {
		for (const path of ['/api/upload', '/cart.data']) {
			const response = await answer({ path, error: refused })
			expect(response.status).toBe(503)
			expect(await response.json()).toEqual({ code: 'TEMPORARILY_UNAVAILABLE', message: expect.stringMatching(/briefly unavailable/) })
		}
	})

	it('leaves every other answer as it was: another error’s 500, a 4xx, a success, and errors of odd shapes [R124]', async () => {
		expect((await answer({ error: new TypeError('x is not a function') })).status).toBe(500)
		expect((await answer({ error: Object.assign(new Error('unique'), { code: 'P2002' }) })).status).toBe(500)
		expect((await answer({})).status).toBe(500)
		expect((await answer({ status: 404, error: refused })).status).toBe(404)
		expect((await answer({ status: 200 })).status).toBe(200)
		for (const odd of [null, undefined, 'ECONNREFUSED', 42]) expect((await answer({ error: odd })).status).toBe(500)
		expect(noteOutage(refused, undefined)).toBe(false)
	})
})
