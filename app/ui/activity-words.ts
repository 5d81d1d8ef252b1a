import type { AuditAction } from '../rules/audit-actions'

/**
 * An activity-log entry as a sentence for people ("Store profile: prices include tax turned on")
 * instead of its code (`store.prices_include_tax`) and raw detail, naming what it changed by its
 * name, number or code where the entry kept one. Every code has its sentence (the table is keyed
 * by the list of codes, so a new one without words does not compile); a code from before a
 * rename still reads as words ("Shipping zone create"), never as a raw code.
 */
type Detail = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
const named = (detail: Detail, key = 'name') => (str(detail[key]) ? ` “${str(detail[key])}”` : '')
const numbered = (detail: Detail) => (str(detail.number) ? ` #${str(detail.number)}` : '')
const percent = (basisPoints: unknown) => (typeof basisPoints === 'number' ? `${basisPoints / 100}%` : '')
const onOff = (value: unknown) => (value === true ? 'turned on' : value === false ? 'turned off' : 'changed')
const count = (value: unknown, one: string, many: string) => (Array.isArray(value) ? ` (${value.length} ${value.length === 1 ? one : many})` : '')
const shipment = (detail: Detail) => {
	const parts = [str(detail.carrier), str(detail.trackingNumber)].filter(Boolean)
	return parts.length ? ` (${parts.join(' ')})` : ''
}

const WORDS: Record<AuditAction, (detail: Detail) => string> = {
	'store.update': (d) => `Store profile saved${str(d.name) ? `: name “${str(d.name)}”` : ''}`,
	'store.prices_include_tax': (d) => `Store profile: prices include tax ${onOff(d.pricesIncludeTax)}`,
	'store.accent': (d) => `Store look: accent colour ${str(d.accentColor) ? `set to ${str(d.accentColor)}` : 'changed'}`,
	'store.logo': (d) => (d.key === null ? 'Store look: logo removed' : 'Store look: logo changed'),
	'store.policies': (d) => `Store policies edited${Array.isArray(d.published) ? ` (published: ${d.published.map(str).join(', ') || 'none'})` : ''}`,
	'product.create': (d) => `Product${named(d, 'title')} created`,
	'product.update': (d) => `Product${named(d, 'title')} edited`,
	'product.delete': (d) => `Product${named(d, 'slug')} deleted`,
	'product.publish': () => 'Product put on sale',
	'product.unpublish': () => 'Product made a draft',
	'product.archive': () => 'Product archived',
	'product.images.add': (d) => `Product images added${count(d.keys, 'image', 'images')}`,
	'product.images.move': (d) => `Product image moved ${d.direction === 'up' ? 'up' : d.direction === 'down' ? 'down' : ''}`.trim(),
	'product.images.remove': () => 'Product image removed',
	'collection.create': (d) => `Collection${named(d, 'title')} created`,
	'collection.update': (d) => `Collection${named(d, 'title')} edited`,
	'collection.delete': (d) => `Collection${named(d, 'slug')} deleted`,
	'collection.add-product': (d) => `Product${named(d, 'title')} added to a collection`,
	'collection.remove-product': () => 'Product taken out of a collection',
	'collection.move': (d) => (d.direction === 'up' || d.direction === 'down' ? `Collection moved ${d.direction}` : 'Collection reordered'),
	'order.mark_paid': (d) => `Order${numbered(d)} marked paid`,
	'order.fulfil': (d) => `Order${numbered(d)} marked shipped${shipment(d)}`,
	'order.cancel': (d) => `Order${numbered(d)} cancelled`,
	'order.refund': (d) => `Refund recorded on order${numbered(d)}`,
	'order.note': (d) => `Note added to order${numbered(d)}`,
	'shipping.zone.create': (d) => `Shipping zone${named(d)} added`,
	'shipping.zone.delete': (d) => `Shipping zone${named(d)} removed`,
	'shipping.rate.create': (d) => `Shipping rate${named(d)} added${str(d.zone) ? ` to ${str(d.zone)}` : ''}`,
	'shipping.rate.delete': (d) => `Shipping rate${named(d)} removed`,
	'tax.rate.set': (d) => `Tax rate for ${str(d.country)} set to ${percent(d.rateBasisPoints)}`,
	'tax.rate.delete': (d) => `Tax rate for ${str(d.country)} removed`,
	'discount.create': (d) => `Discount code${named(d, 'code')} created`,
	'discount.update': (d) => `Discount code${named(d, 'code')} edited${str(d.was) ? ` (was ${str(d.was)})` : ''}`,
	'discount.activate': (d) => `Discount code${named(d, 'code')} switched on`,
	'discount.deactivate': (d) => `Discount code${named(d, 'code')} switched off`,
	'connection.create': (d) => `Payment connection${named(d, 'handle')} added`,
	'connection.payment_instructions': (d) => `Payment instructions of${named(d, 'handle') || ' a connection'} changed`,
	'connection.rotate_secret': (d) => `Payment connection${named(d, 'handle')}: verification secret rotated`,
	'upload.create': () => 'File uploaded',
	'upload.delete': () => 'Upload deleted',
	'upload.failed': () => 'An upload failed',
	'review.approve': () => 'Review approved',
	'review.reject': () => 'Review rejected',
	'review.delete': () => 'Review deleted',
	'mail.resend': () => 'Mail sent again',
	'event.replay': (d) => `Provider event${str(d.eventId) ? ` ${str(d.eventId)}` : ''} applied again`,
	'newsletter.campaign.test': (d) => `Newsletter campaign${named(d, 'subject')} sent as a test${str(d.to) ? ` to ${str(d.to)}` : ''}`,
	'newsletter.campaign.send': (d) =>
		`Newsletter campaign${named(d, 'subject')} queued${typeof d.recipients === 'number' ? ` for ${d.recipients} ${d.recipients === 1 ? 'subscriber' : 'subscribers'}` : ''}`,
}

/** What kind of thing an entry changed, in words. */
const TARGETS: Record<string, string> = {
	store: 'Store',
	product: 'Product',
	collection: 'Collection',
	order: 'Order',
	discount: 'Discount code',
	connection: 'Payment connection',
	upload: 'Upload',
	'upload-request': 'Upload',
	mail: 'Mail',
	provider_event: 'Provider event',
	review: 'Review',
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

const words = (code: string) => {
	const plain = code.replace(/[._-]+/g, ' ').trim()
	return plain.charAt(0).toUpperCase() + plain.slice(1)
}

const isAction = (action: string): action is AuditAction => Object.hasOwn(WORDS, action)

export function activityWords(action: string, detail: string | null) {
	return isAction(action) ? WORDS[action](parsed(detail)) : words(action)
}

/**
 * The kind of thing an entry changed ("Order"), and its name when the entry kept one and the log
 * could not link it (a deleted product's slug, a connection's handle): never its database id.
 */
export function activityTarget(targetType: string, detail: string | null) {
	const d = parsed(detail)
	const kind = TARGETS[targetType] ?? words(targetType)
	const name = numbered(d) || named(d, 'title') || named(d, 'slug') || named(d, 'code') || named(d, 'handle')
	return { kind, name: name.trim() }
}
