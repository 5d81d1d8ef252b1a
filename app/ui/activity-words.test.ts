import { describe, expect, it } from 'vitest'
import { activityWords } from './activity-words'

describe('the activity log in words', () => {
	it('names each change for people, with what it changed [R130]', () => {
		expect(activityWords('store.prices_include_tax', JSON.stringify({ pricesIncludeTax: true }))).toBe('Store profile: prices include tax turned on')
		expect(activityWords('store.prices_include_tax', JSON.stringify({ pricesIncludeTax: false }))).toBe('Store profile: prices include tax turned off')
		expect(activityWords('tax.rate.set', JSON.stringify({ country: 'DE', rateBasisPoints: 1900 }))).toBe('Tax rate for DE set to 19%')
		expect(activityWords('shipping.rate.create', JSON.stringify({ zone: 'Europe', name: 'Standard' }))).toBe('Shipping rate “Standard” added to Europe')
		expect(activityWords('order.mark_paid', null)).toBe('Order marked paid')
	})

	it('never shows a raw code, even for an unknown action or unreadable detail [R130]', () => {
		expect(activityWords('module.thing_done', null)).toBe('Module thing done')
		expect(activityWords('shipping.zone.create', '{not json')).toBe('Shipping zone added')
		expect(activityWords('shipping.zone.create', '[1,2]')).toBe('Shipping zone added')
	})
})
