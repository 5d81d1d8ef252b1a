import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isSafeLocalPath, safeRedirect, signInUrlFor, withRedirect } from './safe-redirect'

const ORIGIN = 'https://store.example'

/** What a browser does with a Location header: resolve it against the page's URL. */
function landsOn(location: string) {
	return new URL(location, `${ORIGIN}/sign-in`).origin
}

/** Strings built from the pieces open-redirect tricks are made of [R27]. */
const PIECES = [
	'/',
	'\\',
	'.',
	'..',
	'%2e',
	'%2E',
	'%2e%2e',
	'%2f',
	'%2F',
	'%5c',
	'%5C',
	'%25',
	'%252f',
	'%252e',
	'%09',
	'%0a',
	'%00',
	'%20',
	' ',
	'\t',
	'\n',
	'\r',
	'\u0000',
	'\u001f',
	'\u007f',
	'\u00a0',
	'\u2028',
	'\u3000',
	'\ufeff',
	'evil.example',
	'a',
	'@',
	':',
	'?',
	'#',
	'http:',
	'https:',
	'//',
	'/\\',
	'%',
]
const trickyString = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(''))

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

	it.each([
		'/.//evil.example',
		'/./\\evil.example',
		'/a/..//evil.example',
		'/%2e//evil.example',
		'/%2e%2e//evil.example',
		'/%2E%2E/%2F/evil.example',
		'/a/%2e%2e%2f%2e%2e%2f/evil.example',
		'/%252f%252fevil.example',
		'/%2F%2e%2e/evil.example',
		'/x/..%2F..%2F%2Fevil.example',
	])('falls back for the dot-segment family %j [R27] (open redirect)', (target) => {
		expect(safeRedirect(target, '/fallback')).toBe('/fallback')
	})

	it('never lets an unsafe fallback through', () => {
		expect(safeRedirect('//evil.example', '//evil.example')).toBe('/')
		expect(safeRedirect(null, '/.//evil.example')).toBe('/')
	})

	it('only ever returns a same-origin path, whatever the input (property, [R27])', () => {
		fc.assert(
			fc.property(fc.oneof(trickyString, fc.string(), fc.string({ unit: 'binary' })), (input) => {
				const out = safeRedirect(input, '/fallback')
				expect(out).toMatch(/^\/(?![/\\])/)
				expect(isSafeLocalPath(out)).toBe(true)
				expect(landsOn(out)).toBe(ORIGIN)
				// However many times a proxy or router decodes it, it stays a path here.
				let decoded = out
				for (let i = 0; i < 3; i++) {
					decoded = decodeURIComponent(decoded)
					expect(decoded).toMatch(/^\/(?![/\\])/)
					expect(landsOn(decoded)).toBe(ORIGIN)
					expect(new URL(decoded, ORIGIN).pathname).toMatch(/^\/(?![/\\])/)
				}
			}),
			{ numRuns: 20_000 },
		)
	})

	it('keeps ordinary local targets unchanged (property)', () => {
		const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/)
		fc.assert(
			fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
				const path = `/${segments.join('/')}`
				expect(safeRedirect(path, '/fallback')).toBe(path)
			}),
		)
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
