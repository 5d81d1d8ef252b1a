/**
 * An activity-log entry as a sentence for people ("Store profile: prices include tax turned on")
 * instead of its code (`store.prices_include_tax`) and raw detail. Unknown codes still read as
 * words ("Shipping zone create"), so a new action is never shown as a raw code.
 */
type Detail = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
const named = (detail: Detail, key = 'name') => (str(detail[key]) ? ` “${str(detail[key])}”` : '')
const percent = (basisPoints: unknown) => (typeof basisPoints === 'number' ? `${basisPoints / 100}%` : '')
const onOff = (value: unknown) => (value === true ? 'turned on' : value === false ? 'turned off' : 'changed')

const WORDS: Record<string, (detail: Detail) => string> = {
	'store.update': () => 'Store profile saved',
	'store.prices_include_tax': (d) => `Store profile: prices include tax ${onOff(d.pricesIncludeTax)}`,
	'store.accent': () => 'Store look: accent colour changed',
	'store.logo': () => 'Store look: logo changed',
	'store.policies': () => 'Store policies edited',
	'product.create': (d) => `Product${named(d, 'title')} created`,
	'product.update': (d) => `Product${named(d, 'title')} edited`,
	'product.delete': (d) => `Product${named(d, 'slug')} deleted`,
	'product.publish': () => 'Product put on sale',
	'product.unpublish': () => 'Product made a draft',
	'product.archive': () => 'Product archived',
	'collection.create': (d) => `Collection${named(d, 'title')} created`,
	'collection.update': (d) => `Collection${named(d, 'title')} edited`,
	'collection.delete': (d) => `Collection${named(d, 'slug')} deleted`,
	'collection.add-product': () => 'Product added to a collection',
	'collection.remove-product': () => 'Product taken out of a collection',
	'collection.move': () => 'Collection reordered',
	'order.mark_paid': () => 'Order marked paid',
	'order.fulfil': () => 'Order marked shipped',
	'order.cancel': () => 'Order cancelled',
	'order.refund': () => 'Refund recorded',
	'order.note': () => 'Note added to an order',
	'shipping.zone.create': (d) => `Shipping zone${named(d)} added`,
	'shipping.zone.delete': (d) => `Shipping zone${named(d)} removed`,
	'shipping.rate.create': (d) => `Shipping rate${named(d)} added${str(d.zone) ? ` to ${str(d.zone)}` : ''}`,
	'shipping.rate.delete': (d) => `Shipping rate${named(d)} removed`,
	'tax.rate.set': (d) => `Tax rate for ${str(d.country)} set to ${percent(d.rateBasisPoints)}`,
	'tax.rate.delete': (d) => `Tax rate for ${str(d.country)} removed`,
	'connection.create': () => 'Payment connection added',
	'connection.payment_instructions': () => 'Payment instructions changed',
	'connection.rotate_secret': () => 'Payment connection: verification secret rotated',
	'upload.create': () => 'File uploaded',
	'upload.delete': () => 'Upload deleted',
	'upload.failed': () => 'An upload failed',
	'review.approve': () => 'Review approved',
	'review.reject': () => 'Review rejected',
	'review.delete': () => 'Review deleted',
	'mail.resend': () => 'Mail sent again',
	'event.replay': () => 'Provider event applied again',
}

function parsed(detail: string | null): Detail {
	if (!detail) return {}
	try {
		const value: unknown = JSON.parse(detail)
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Detail) : {}
	} catch {
		return {}
	}
}

export function activityWords(action: string, detail: string | null) {
	const words = WORDS[action]
	if (words) return words(parsed(detail))
	const plain = action.replace(/[._-]+/g, ' ').trim()
	return plain.charAt(0).toUpperCase() + plain.slice(1)
}
