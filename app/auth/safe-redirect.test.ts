import { describe, expect, it } from 'vitest'
import { safeRedirect, signInUrlFor, withRedirect } from './safe-redirect'

describe('safeRedirect (redirectTo only ever leads to a path on this site)', () => {
	it.each(['/account', '/admin/store?tab=1#top', '/a/b/c'])('keeps the local path %s', (path) => {
		expect(safeRedirect(path)).toBe(path)
	})

	it.each([
		'https://evil.example/',
		'//evil.example',
		'/\\evil.example',
		'\\\\evil.example',
		'/%2F%2Fevil.example',
		'/%5Cevil.example',
		'javascript:alert(1)',
		'evil.example',
		' /account',
		'/\tevil',
		'/%E0%A4%A',
		'',
	])('falls back for %j', (target) => {
		expect(safeRedirect(target, '/fallback')).toBe('/fallback')
	})

	it('falls back for missing and non-string values', () => {
		expect(safeRedirect(null)).toBe('/')
		expect(safeRedirect(undefined, '/account')).toBe('/account')
		expect(safeRedirect(new File([], 'x'))).toBe('/')
	})

	it('normalises dot segments so they stay on this site', () => {
		expect(safeRedirect('/a/../../b')).toBe('/b')
	})
})

describe('signInUrlFor', () => {
	it('returns to the page, with its query, after sign-in', () => {
		const request = new Request('http://store.test/admin/store?x=1')
		expect(signInUrlFor(request)).toBe('/sign-in?redirectTo=%2Fadmin%2Fstore%3Fx%3D1')
	})

	it('returns to the page, not the data URL, for a data request', () => {
		const request = new Request('http://store.test/admin/store.data?_routes=routes%2Fadmin%2Fstore')
		expect(signInUrlFor(request)).toBe('/sign-in?redirectTo=%2Fadmin%2Fstore')
	})
})

describe('withRedirect (redirectTo carried between sign-in and sign-up)', () => {
	it('carries a local path', () => {
		expect(withRedirect('/sign-up', '/admin/store?x=1')).toBe('/sign-up?redirectTo=%2Fadmin%2Fstore%3Fx%3D1')
	})

	it('drops a foreign or empty target', () => {
		expect(withRedirect('/sign-up', '//evil.example')).toBe('/sign-up')
		expect(withRedirect('/sign-up', '')).toBe('/sign-up')
	})
})
