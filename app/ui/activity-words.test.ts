import { describe, expect, it } from 'vitest'
import { AUDIT_ACTIONS } from '../rules/audit-actions'
import { activityTarget, activityWords } from './activity-words'

/** What each kind of entry keeps in its detail, as its writer records it. */
const DETAIL = {
	title: 'Harbour poster',
	slug: 'harbour-poster',
	code: 'SPRING10',
	handle: 'bank-transfer',
	subject: 'Spring news',
	name: 'Europe',
	zone: 'Europe',
	number: 1042,
	country: 'DE',
	rateBasisPoints: 1900,
	pricesIncludeTax: true,
	eventId: 'evt_123',
	recipients: 3,
}

describe('the activity log in words', () => {
	it('has a sentence for every action the log records: none reads as its code [R130]', () => {
		for (const action of AUDIT_ACTIONS) {
			const sentence = activityWords(action, JSON.stringify(DETAIL))
			const fallback = action.replace(/[._-]+/g, ' ')
			expect(sentence.toLowerCase(), action).not.toBe(fallback)
			expect(sentence, action).not.toMatch(/[._][a-z]/)
			expect(sentence, action).toMatch(/^[A-Z]/)
		}
	})

	it('names the thing changed by its name, number or code, never by an id [R130]', () => {
		const detail = JSON.stringify(DETAIL)
		expect(activityWords('order.mark_paid', JSON.stringify({ number: 1042, from: 'pending' }))).toBe('Order #1042 marked paid')
		expect(activityWords('order.fulfil', JSON.stringify({ number: 7, carrier: 'DHL', trackingNumber: 'JD01' }))).toBe('Order #7 marked shipped (DHL JD01)')
		expect(activityWords('order.refund', detail)).toBe('Refund recorded on order #1042')
		expect(activityWords('discount.deactivate', JSON.stringify({ code: 'SPRING10' }))).toBe('Discount code “SPRING10” switched off')
		expect(activityWords('connection.rotate_secret', JSON.stringify({ handle: 'bank-transfer' }))).toBe(
			'Payment connection “bank-transfer”: verification secret rotated',
		)
		expect(activityWords('newsletter.campaign.send', JSON.stringify({ campaignId: 'c1', subject: 'Spring news', recipients: 3 }))).toBe(
			'Newsletter campaign “Spring news” queued for 3 subscribers',
		)
		expect(activityWords('product.images.add', JSON.stringify({ keys: ['a', 'b'] }))).toBe('Product images added (2 images)')
		expect(activityTarget('order', JSON.stringify({ number: 1042 }))).toEqual({ kind: 'Order', name: '#1042' })
		expect(activityTarget('connection', JSON.stringify({ handle: 'bank-transfer' }))).toEqual({ kind: 'Payment connection', name: '“bank-transfer”' })
		expect(activityTarget('store', null)).toEqual({ kind: 'Store', name: '' })
	})

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
		expect(activityTarget('provider_event', null)).toEqual({ kind: 'Provider event', name: '' })
		expect(activityTarget('some_new-kind', null)).toEqual({ kind: 'Some new kind', name: '' })
	})
})
