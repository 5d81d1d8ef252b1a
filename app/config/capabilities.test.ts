import { describe, expect, it } from 'vitest'
import { CAPABILITIES, capability, isEnabled, stateOf } from './capabilities'

describe('capability registry [R70] [R71]', () => {
	it('keeps Order claiming off while its capability is not Stable, whatever else is offered [R71]', () => {
		expect(capability('guest-order-claiming').maturity).toBe('experimental')
		expect(isEnabled('guest-order-claiming')).toBe(false)
		expect(stateOf(capability('guest-order-claiming'))).toBe('off until Stable')
		expect(isEnabled('catalog')).toBe(true)
	})

	it('lists managed isolation as Experimental [R71]', () => {
		expect(stateOf(capability('managed-isolation'))).toBe('Experimental')
	})

	it('gives every capability a unique id and every Stable one its evidence', () => {
		expect(new Set(CAPABILITIES.map((c) => c.id)).size).toBe(CAPABILITIES.length)
		for (const c of CAPABILITIES.filter((c) => c.maturity === 'stable')) expect(c.proof.length, c.id).toBeGreaterThan(0)
	})

	it('refuses to answer for a capability it does not know', () => {
		expect(() => isEnabled('time-travel')).toThrow(/Unknown capability/)
	})
})
