import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import routes from '../routes'
import { createAuth } from '../auth/auth.server'
import { parseConfig } from '../config/env.server'
import { createDb } from '../data/db.server'
import { recordLogs } from '../../tests/helpers/log'
import { loggablePath, requestLogging, SECRET_PATH_PREFIXES } from './request-log.server'

const CANARY = 'canary-Zq81xV0pLk27sWm4'

/** Every spelling of `/<prefix>/<secret>` a router may serve the same page for, and what may follow it. */
function spellings(prefix: readonly string[], secret: string) {
	const shout = (name: string) => name.toUpperCase()
	const encode = (name: string) => [...name].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('')
	return [
		`/${prefix.join('/')}/${secret}`,
		`/${prefix.join('/')}/${secret}/`,
		`/${prefix.join('/')}/${secret}.data`,
		`/${prefix.join('/')}/${secret}?callbackURL=%2Freset-password`,
		`/${prefix.map(shout).join('/')}/${secret}`,
		`//${prefix.join('//')}//${secret}`,
		`/${prefix.map(encode).join('/')}/${secret}`,
		`/${prefix.join('/')}/${encodeURIComponent(secret)}#x`,
	]
}

describe('paths that carry a secret, in the request log [R13, R28]', () => {
	it('writes [token] for the secret segment of every such path, however it is spelled', () => {
		for (const prefix of SECRET_PATH_PREFIXES) {
			for (const path of spellings(prefix, CANARY)) {
				const logged = loggablePath(path)
				expect(logged, path).not.toContain(CANARY)
				expect(logged, path).toContain('[token]')
			}
		}
		expect(loggablePath('/api/auth/reset-password/tok123?callbackURL=%2Freset-password')).toBe('/api/auth/reset-password/[token]')
		expect(loggablePath('/orders/tok_abcdef123456?paid=1')).toBe('/orders/[token]')
		// The prefix alone, and paths that only resemble one, stay as they are.
		expect(loggablePath('/orders')).toBe('/orders')
		expect(loggablePath('/account/orders/1001')).toBe('/account/orders/1001')
		expect(loggablePath('/api/auth/reset-password')).toBe('/api/auth/reset-password')
	})

	it('logs no link the store mails or serves with its secret: the query is never written', () => {
		for (const path of [
			`/newsletter/confirm?token=${CANARY}`,
			`/newsletter/unsubscribe?token=${CANARY}`,
			`/newsletter/unsubscribe.data?token=${CANARY}`,
			`/reset-password?token=${CANARY}`,
			`/api/auth/callback/managed?code=${CANARY}&state=${CANARY}`,
			`/api/auth/verify-email?token=${CANARY}`,
		]) {
			expect(loggablePath(path), path).not.toContain(CANARY)
		}
	})

	it('knows every route whose path takes a value, and which of those values are secrets', () => {
		// What each dynamic segment of the route table holds. A new route with a value in its path
		// fails here until it is listed: as public, or in SECRET_PATH_PREFIXES.
		const PUBLIC: Record<string, string> = {
			'products/:slug': 'a product’s public name',
			'collections/:slug': 'a collection’s public name',
			'policies/:kind': 'shipping, returns or privacy',
			'account/orders/:number': 'an Order number, shown only to its owner',
			'admin/products/:id': 'an id, behind the admin guard',
			'admin/collections/:id': 'an id, behind the admin guard',
			'admin/orders/:number': 'an Order number, behind the admin guard',
			'admin/customers/:id': 'an id, behind the admin guard',
			'admin/orders/:number/packing-slip': 'an Order number, behind the admin guard',
			'admin/discounts/:id': 'an id, behind the admin guard',
			'api/events/:connection': 'a Connection’s handle, which its provider is given',
			'media/*': 'an object key (a key is not authorization: ownership is checked)',
			'api/auth/*': 'better-auth’s paths: checked endpoint by endpoint below',
			'*': 'whatever was asked for that does not exist',
		}
		const secret = new Set(SECRET_PATH_PREFIXES.map((prefix) => prefix.join('/')))
		const paths: string[] = []
		const walk = (entries: ReadonlyArray<{ path?: string; children?: unknown }>, parent: string) => {
			for (const entry of entries) {
				const path = [parent, entry.path].filter(Boolean).join('/')
				if (entry.path && /[:*]/.test(entry.path)) paths.push(path)
				walk((entry.children as typeof entries | undefined) ?? [], path)
			}
		}
		walk(routes as never, '')
		expect(paths.length).toBeGreaterThan(10)
		for (const path of paths) {
			const staticPart = path.replace(/\/?(:[^/]+|\*)$/, '')
			expect(PUBLIC[path] !== undefined || secret.has(staticPart), `${path}: public or secret?`).toBe(true)
		}
		expect(secret.has('orders')).toBe(true)
	})

	it('knows every better-auth endpoint whose path takes a value', () => {
		const auth = createAuth({ db: createDb('file::memory:'), config: parseConfig({ NODE_ENV: 'test', PASSWORD_RECOVERY: 'off' }) })
		const PUBLIC = new Set(['/callback/:id', '/callback/:id/oauth-proxy', '/oauth2/callback/:providerId'])
		const secret = new Set(SECRET_PATH_PREFIXES.map((prefix) => `/${prefix.join('/')}`))
		const paths = Object.values(auth.api)
			.map((endpoint) => (endpoint as { path?: unknown }).path)
			.filter((path): path is string => typeof path === 'string' && path.includes(':'))
		expect(paths).toContain('/reset-password/:token')
		for (const path of paths) {
			const staticPart = `/api/auth${path.replace(/\/:[^/]+.*$/, '')}`
			expect(PUBLIC.has(path) || secret.has(staticPart), `${path}: public or secret?`).toBe(true)
		}
	})

	describe('over HTTP', () => {
		let server: Server
		let origin: string
		beforeAll(async () => {
			const middleware = requestLogging()
			server = createServer((req, res) => middleware(req, res, () => res.end('ok')))
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
			origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
		})
		afterAll(() => new Promise((resolve) => server.close(resolve)))

		it('never writes a canary sent through any path that carries a secret', async () => {
			const logged = recordLogs()
			const sent = SECRET_PATH_PREFIXES.flatMap((prefix) => spellings(prefix, CANARY).filter((path) => !path.includes('#')))
			for (const path of sent) await (await fetch(`${origin}${path}`)).text()
			await new Promise((resolve) => setTimeout(resolve, 20))
			logged.stop()
			const lines = logged.records.filter((record) => record.msg === 'request')
			expect(lines).toHaveLength(sent.length)
			expect(JSON.stringify(logged.records)).not.toContain(CANARY)
		})
	})
})
