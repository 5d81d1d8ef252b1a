import { describe, expect, it } from 'vitest'
import { existingOrderToken, hashOrderToken, orderToken } from './token.server'

describe('confirmation links across an AUTH_SECRET rotation [R14]', () => {
	const previous = 'p'.repeat(40)
	const current = 'c'.repeat(40)

	it('gives a replayed checkout the link its Order was placed with, derived by the previous secret', () => {
		const placedWith = orderToken('order-1', previous)
		const token = existingOrderToken('order-1', hashOrderToken(placedWith), { authSecret: current, previousAuthSecrets: [previous] })
		expect(token).toBe(placedWith)
		expect(token).not.toBe(orderToken('order-1', current))
	})

	it('uses the current secret for Orders placed with it, and never another Order’s link', () => {
		const placedWith = orderToken('order-2', current)
		expect(existingOrderToken('order-2', hashOrderToken(placedWith), { authSecret: current, previousAuthSecrets: [previous] })).toBe(placedWith)
		const stranger = existingOrderToken('order-2', hashOrderToken(orderToken('order-3', current)), { authSecret: current, previousAuthSecrets: [previous] })
		expect(hashOrderToken(stranger)).not.toBe(hashOrderToken(orderToken('order-3', current)))
	})
})
