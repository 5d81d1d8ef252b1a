import { describe, expect, it } from 'vitest'
import { portFrom, withPort } from './setup-env'

describe('the PORT setup writes', () => {
	it('replaces the PORT line, or appends one, keeping every other line [R131]', () => {
		expect(withPort('AUTH_SECRET=x\nPORT=3000\nHOST=0.0.0.0\n', 4000)).toBe('AUTH_SECRET=x\nPORT=4000\nHOST=0.0.0.0\n')
		expect(withPort('AUTH_SECRET=x', 4000)).toBe('AUTH_SECRET=x\nPORT=4000\n')
		expect(withPort('', 4000)).toBe('PORT=4000\n')
		// A comment that mentions PORT is not the setting.
		expect(withPort('# PORT=1\nPORT=2\n', 4000)).toBe('# PORT=1\nPORT=4000\n')
	})

	it('takes only a port the server can listen on [R131]', () => {
		expect(portFrom('4000')).toBe(4000)
		expect(portFrom(' 8080 ')).toBe(8080)
		for (const bad of [undefined, '', '0', '65536', '-1', '40.5', '4000abc', '1e3', 'http']) expect(portFrom(bad), String(bad)).toBeNull()
	})
})
