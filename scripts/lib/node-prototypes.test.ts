import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import express, { type Express } from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { serveOnNodePrototypes } from './node-prototypes'

const servers: Server[] = []
afterEach(() => {
	for (const server of servers.splice(0)) server.close()
})

async function serve(app: Express) {
	const server = createServer(app)
	servers.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function appOnNodePrototypes(trustProxy: number | false) {
	const app = express()
	app.use(serveOnNodePrototypes(app))
	app.set('trust proxy', trustProxy)
	app.get('/seen', (req, res) => {
		res.status(201).json({
			requestPrototypeIsNodes: Object.getPrototypeOf(req) === IncomingMessage.prototype,
			responsePrototypeIsNodes: Object.getPrototypeOf(res) === ServerResponse.prototype,
			appIsThisOne: req.app === app && res.app === app,
			ip: req.ip,
			header: req.get('x-probe') ?? null,
			query: req.query.q ?? null,
			locals: typeof res.locals,
		})
	})
	app.get('/text', (_req, res) => res.send('the same body every time'))
	return app
}

describe('Express on Node’s own prototypes', () => {
	it('leaves each request and response on Node’s prototypes, where Express would have moved them', async () => {
		const base = await serve(appOnNodePrototypes(false))
		const response = await fetch(`${base}/seen?q=linen`, { headers: { 'x-probe': 'here' } })
		expect(response.status).toBe(201)
		expect(await response.json()).toEqual({
			requestPrototypeIsNodes: true,
			responsePrototypeIsNodes: true,
			appIsThisOne: true,
			ip: '127.0.0.1',
			header: 'here',
			query: 'linen',
			locals: 'object',
		})
	})

	it("keeps each app's own settings: trust proxy decides whose address req.ip is [R50]", async () => {
		const trusting = await serve(appOnNodePrototypes(1))
		const distrusting = await serve(appOnNodePrototypes(false))
		const headers = { 'x-forwarded-for': '203.0.113.9' }
		const [trusted, distrusted] = await Promise.all([fetch(`${trusting}/seen`, { headers }), fetch(`${distrusting}/seen`, { headers })])
		expect(((await trusted.json()) as { ip: string }).ip).toBe('203.0.113.9')
		expect(((await distrusted.json()) as { ip: string }).ip).toBe('127.0.0.1')
	})

	it('sends through the app’s own settings (res.send reads its etag function from res.app)', async () => {
		const base = await serve(appOnNodePrototypes(false))
		const response = await fetch(`${base}/text`)
		expect(response.status).toBe(200)
		expect(response.headers.get('etag')).toMatch(/^W\/"18-/)
		expect(await response.text()).toBe('the same body every time')
	})

	it('refuses to start when Express would replace something Node defines', () => {
		const clash = Object.create(Object.create(IncomingMessage.prototype, { setTimeout: { value: () => 'not Node’s' } })) as object
		const app = { request: clash, response: Object.create(ServerResponse.prototype) as object } as unknown as Express
		expect(() => serveOnNodePrototypes(app)).toThrow("Express defines setTimeout, which Node's IncomingMessage already has")
		expect(typeof IncomingMessage.prototype.setTimeout).toBe('function')
		expect(IncomingMessage.prototype.setTimeout).not.toBe((Object.getPrototypeOf(clash) as { setTimeout: unknown }).setTimeout)
	})
})
