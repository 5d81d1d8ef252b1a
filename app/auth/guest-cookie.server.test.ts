import { createCookie } from 'react-router'
import { describe, expect, it } from 'vitest'
import { getConfig } from '../config/env.server'
import { guestIdFromCookieHeader, issueGuestId, serializeWithReactRouter } from './guest-cookie.server'

const GUEST = '0b5c8f0e-2a44-4f7e-9a51-6c1d2e3f4a5b'

/** React Router's own signed cookie, the format the fast reader must accept and nothing else. */
const routerCookie = (secret: string) => createCookie('guestId', { secrets: [secret], path: '/' })
const header = (setCookie: string) => setCookie.split(';')[0] ?? ''

describe('the guestId cookie [R2] (guest carts; read without WebCrypto)', () => {
	it('reads a guest id React Router signed, and one it issued itself', async () => {
		const signed = header(await routerCookie(getConfig().authSecret).serialize(GUEST))
		expect(await guestIdFromCookieHeader(`theme=dark; ${signed}; other=1`)).toBe(GUEST)
		const issued = issueGuestId()
		expect(await guestIdFromCookieHeader(header(issued.setCookie))).toBe(issued.guestId)
	})

	it('issues, in one synchronous step, exactly the Set-Cookie React Router writes for the same id', async () => {
		for (let i = 0; i < 20; i++) {
			const issued = issueGuestId()
			expect(issued.setCookie).toBe(await serializeWithReactRouter(issued.guestId))
			expect(await guestIdFromCookieHeader(header(issued.setCookie))).toBe(issued.guestId)
		}
	})

	it('refuses a value signed with another secret, altered, unsigned or malformed', async () => {
		const foreign = header(await routerCookie('another secret entirely').serialize(GUEST))
		const signed = header(await routerCookie(getConfig().authSecret).serialize(GUEST))
		const [name, value] = signed.split('=') as [string, string]
		const decoded = decodeURIComponent(value)
		const dot = decoded.lastIndexOf('.')
		const otherId = Buffer.from(JSON.stringify('11111111-2222-4333-8444-555555555555')).toString('base64')
		for (const cookie of [
			foreign,
			`${name}=${encodeURIComponent(`${otherId}${decoded.slice(dot)}`)}`,
			`${name}=${encodeURIComponent(decoded.slice(0, dot))}`,
			`${name}=${encodeURIComponent(`${decoded}A`)}`,
			`${name}=%E0%A4%A`,
			`${name}=`,
			`${name}=.`,
			'',
		]) {
			expect(await guestIdFromCookieHeader(cookie), cookie).toBeNull()
		}
	})

	it('refuses a correctly signed value that is not a guest id', async () => {
		const secret = getConfig().authSecret
		for (const value of ['not-a-uuid', { guestId: GUEST }, 42]) {
			const signed = header(await routerCookie(secret).serialize(value))
			expect(await guestIdFromCookieHeader(signed)).toBeNull()
		}
	})

	it('reads a cookie signed with a secret AUTH_SECRET replaced while it is listed in AUTH_SECRET_PREVIOUS, and not after [R14]', async () => {
		const config = getConfig()
		const old = 'a-previous-secret-of-this-store-0123456789abcdef'
		const signed = header(await routerCookie(old).serialize(GUEST))
		expect(await guestIdFromCookieHeader(signed)).toBeNull()
		const saved = config.previousAuthSecrets
		Object.assign(config, { previousAuthSecrets: ['another-replaced-secret-0123456789abcdef', old] })
		try {
			expect(await guestIdFromCookieHeader(signed)).toBe(GUEST)
		} finally {
			Object.assign(config, { previousAuthSecrets: saved })
		}
		expect(await guestIdFromCookieHeader(signed)).toBeNull()
	})
})
