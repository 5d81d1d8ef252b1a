import { describe, expect, it } from 'vitest'
import { canTransition, ORDER_STATUSES, ORDER_TRANSITIONS } from './order-status'

/** Every pair, spelled out: the table is the whole truth about order states. */
const ALLOWED = new Set(['awaiting_payment→paid', 'awaiting_payment→cancelled', 'paid→fulfilled', 'paid→refunded', 'paid→cancelled', 'fulfilled→refunded'])

describe('order status transitions (one table, tested exhaustively)', () => {
	for (const from of ORDER_STATUSES) {
		for (const to of ORDER_STATUSES) {
			it(`${ALLOWED.has(`${from}→${to}`) ? 'allows' : 'refuses'} ${from} → ${to}`, () => {
				expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}→${to}`))
			})
		}
	}

	it('refuses unknown states either side, and lists no unknown target', () => {
		expect(canTransition('shipped', 'paid')).toBe(false)
		expect(canTransition('paid', 'teleported')).toBe(false)
		for (const targets of Object.values(ORDER_TRANSITIONS)) for (const to of targets) expect(ORDER_STATUSES).toContain(to)
	})
})
