import { describe, expect, it } from 'vitest'
import { CAPABILITIES, isEnabled } from './capabilities'

describe('capability maturity (spec 9)', () => {
	it('starts every capability as Experimental', () => {
		expect(CAPABILITIES.length).toBeGreaterThan(0)
		for (const capability of CAPABILITIES) expect(capability.maturity, capability.id).toBe('experimental')
	})

	it('does not claim guest Orders on registration until the capability is Stable (spec 3.2)', () => {
		expect(isEnabled('guest-order-claiming', { requireStable: true })).toBe(false)
		expect(isEnabled('guest-order-claiming')).toBe(false)
	})

	it('refuses to answer for a capability it does not know', () => {
		expect(() => isEnabled('time-travel')).toThrow(/Unknown capability/)
	})
})
