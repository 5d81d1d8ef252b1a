/**
 * The rows of a store of a given size, made from a seed: the same seed and sizes give the same
 * catalog, customers and Orders (only their times move with the day it runs, so the last 30
 * days always hold sales). Pure: scripts/lib/scale-seed.ts writes them.
 */
import { createHash } from 'node:crypto'

export type ScaleSize = { products: number; orders: number; customers: number; seed: number }

/** mulberry32: a small, fast PRNG; deterministic for a seed. */
export function randomFrom(seed: number) {
	let state = seed >>> 0
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
	return {
		next,
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
		chance: (p: number) => next() < p,
	}
}

const ADJECTIVES = [
	'Classic',
	'Everyday',
	'Heavy',
	'Light',
	'Soft',
	'Rustic',
	'Modern',
	'Vintage',
	'Handmade',
	'Organic',
	'Small',
	'Large',
	'Woven',
	'Speckled',
	'Striped',
	'Plain',
]
const MATERIALS = [
	'cotton',
	'linen',
	'wool',
	'enamel',
	'oak',
	'walnut',
	'ceramic',
	'leather',
	'canvas',
	'brass',
	'glass',
	'stoneware',
	'bamboo',
	'hemp',
	'copper',
	'felt',
]
const NOUNS = [
	'tote',
	'mug',
	'napkins',
	'candle',
	'notebook',
	'socks',
	'apron',
	'bowl',
	'scarf',
	'blanket',
	'tray',
	'vase',
	'pouch',
	'cushion',
	'jug',
	'basket',
	'lamp',
	'board',
]
const FIRST = [
	'Ada',
	'Ben',
	'Chloé',
	'Dev',
	'Emma',
	'Finn',
	'Grace',
	'Hugo',
	'Ines',
	'Jon',
	'Kira',
	'Liam',
	'Mia',
	'Noah',
	'Olga',
	'Pia',
	'Raj',
	'Sara',
	'Tom',
	'Uma',
]
const LAST = [
	'Adams',
	'Berg',
	'Costa',
	'Dubois',
	'Evans',
	'Fischer',
	'García',
	'Hansen',
	'Ito',
	'Jensen',
	'Kowalski',
	'Larsen',
	'Moreau',
	'Nakamura',
	'Olsen',
	'Petrov',
]
const CITIES = [
	['Berlin', 'DE', '10115'],
	['Lyon', 'FR', '69001'],
	['Portland', 'US', '97201'],
	['Leeds', 'GB', 'LS1 4AP'],
	['Utrecht', 'NL', '3511'],
	['Toronto', 'CA', 'M5V 2T6'],
] as const
/** A word in a handful of products only: the bench's rare search. */
export const RARE_WORD = 'heliotrope'
/** A word in about one product title of sixteen: the bench's common search. */
export const COMMON_WORD = MATERIALS[0]!
const SIZES = ['S', 'M', 'L', 'XL']
const COLOURS = ['Oat', 'Blue', 'Rust', 'Moss']

const DAY_MS = 24 * 60 * 60 * 1000
/** Orders, customers and products spread over this much of the past. */
export const HISTORY_DAYS = 730

export type ScaleProduct = {
	id: string
	slug: string
	title: string
	description: string
	priceMinor: number
	optionNames: string
	status: string
	createdAt: Date
	variants: Array<{ id: string; optionValues: string; title: string; sku: string; priceMinor: number; stock: number; position: number }>
	/** How many gallery images (0–3). */
	images: number
}

const slugOf = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[^\w\s-]/g, '')
		.trim()
		.toLowerCase()
		.replace(/\s+/g, '-')

/** When the i-th of `count` things spread evenly over the history happened (oldest first). */
const spread = (now: number, i: number, count: number, jitterMs: number, random: ReturnType<typeof randomFrom>) =>
	new Date(now - HISTORY_DAYS * DAY_MS + Math.floor(((i + 0.5) / count) * HISTORY_DAYS * DAY_MS) + Math.floor(random.next() * jitterMs))

export function productsOf({ products, seed }: ScaleSize, now: number): ScaleProduct[] {
	const random = randomFrom(seed * 31 + 1)
	return Array.from({ length: products }, (_, i) => {
		const title = `${random.pick(ADJECTIVES)} ${random.pick(MATERIALS)} ${random.pick(NOUNS)}`
		const rare = i % 2000 === 7 ? ` Dyed ${RARE_WORD} purple.` : ''
		const description = `${title}, made in small batches from ${random.pick(MATERIALS)} and ${random.pick(MATERIALS)}.${rare} Ships in recycled packaging.`
		const base = random.int(4, 200) * 100 - 1
		const id = `scale-p-${seed}-${i}`
		// A third of the products come in options: sizes or colours, three or four of them.
		const options = i % 3 === 0 ? (random.chance(0.5) ? { name: 'Size', values: SIZES } : { name: 'Colour', values: COLOURS }) : null
		const values = options ? options.values.slice(0, random.int(3, 4)) : [null]
		const variants = values.map((value, position) => ({
			id: `${id}-v${position}`,
			optionValues: JSON.stringify(value ? [value] : []),
			title: value ?? '',
			sku: `SC${seed}-${i}-${position}`,
			priceMinor: base + (value === 'XL' ? 300 : 0),
			stock: random.int(0, 250),
			position,
		}))
		const roll = random.next()
		return {
			id,
			slug: `${slugOf(title)}-${i + 1}`,
			title,
			description,
			priceMinor: Math.min(...variants.map((v) => v.priceMinor)),
			optionNames: JSON.stringify(options ? [options.name] : []),
			status: roll < 0.9 ? 'active' : roll < 0.97 ? 'draft' : 'archived',
			createdAt: spread(now, i, products, 6 * 60 * 60 * 1000, random),
			variants,
			images: random.chance(0.85) ? random.int(1, 3) : 0,
		}
	})
}

export type ScaleCustomer = { id: string; name: string; email: string; createdAt: Date }

export function customersOf({ customers, seed }: ScaleSize, now: number): ScaleCustomer[] {
	const random = randomFrom(seed * 31 + 2)
	return Array.from({ length: customers }, (_, i) => {
		const first = random.pick(FIRST)
		const last = random.pick(LAST)
		return {
			id: `scale-u-${seed}-${i}`,
			name: `${first} ${last}`,
			email: `${slugOf(first)}.${slugOf(last)}.${i + 1}@example.com`,
			createdAt: spread(now, i, customers, 60 * 60 * 1000, random),
		}
	})
}

export type OrderStatus = 'awaiting_payment' | 'paid' | 'fulfilled' | 'cancelled' | 'refunded'

/**
 * An Order's status as a real shop's history has them: recent Orders still waiting for payment or
 * shipping, older ones shipped, some cancelled, some refunded (whole or in part).
 */
function statusOf(ageDays: number, roll: number): OrderStatus {
	if (ageDays < 3) return roll < 0.35 ? 'awaiting_payment' : roll < 0.75 ? 'paid' : 'fulfilled'
	return roll < 0.84 ? 'fulfilled' : roll < 0.92 ? 'cancelled' : roll < 0.97 ? 'refunded' : roll < 0.99 ? 'awaiting_payment' : 'paid'
}

export type ScaleOrder = {
	id: string
	number: number
	tokenHash: string
	userId: string | null
	guestId: string | null
	email: string
	name: string
	addressLine1: string
	city: string
	postalCode: string
	country: string
	currency: string
	subtotalMinor: number
	shippingMinor: number
	shippingName: string | null
	totalMinor: number
	refundedMinor: number
	capturedMinor: number
	status: OrderStatus
	idempotencyKey: string
	paidAt: Date | null
	shippedAt: Date | null
	carrier: string | null
	trackingNumber: string | null
	createdAt: Date
	updatedAt: Date
	lines: Array<{
		id: string
		productId: string
		variantId: string
		title: string
		variantTitle: string
		sku: string
		unitPriceMinor: number
		quantity: number
		lineTotalMinor: number
		position: number
	}>
}

/** Orders over two years, oldest first, numbered from 1001; their lines refer to `products`. */
export function* ordersOf(
	{ orders, seed }: ScaleSize,
	now: number,
	products: readonly ScaleProduct[],
	customers: readonly ScaleCustomer[],
): Generator<ScaleOrder> {
	const random = randomFrom(seed * 31 + 3)
	const sellable = products.filter((product) => product.status !== 'draft')
	for (let i = 0; i < orders; i++) {
		const createdAt = spread(now, i, orders, 0, random)
		const ageDays = (now - createdAt.getTime()) / DAY_MS
		const customer = customers.length > 0 && random.chance(0.7) ? random.pick(customers) : null
		const [city, country, postalCode] = random.pick(CITIES)
		const lines = Array.from({ length: random.int(1, 3) }, (_, position) => {
			const product = random.pick(sellable)
			const variant = random.pick(product.variants)
			const quantity = random.chance(0.8) ? 1 : random.int(2, 4)
			return {
				id: `scale-l-${seed}-${i}-${position}`,
				productId: product.id,
				variantId: variant.id,
				title: product.title,
				variantTitle: variant.title,
				sku: variant.sku,
				unitPriceMinor: variant.priceMinor,
				quantity,
				lineTotalMinor: variant.priceMinor * quantity,
				position,
			}
		})
		const subtotalMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0)
		const shippingMinor = subtotalMinor >= 10000 ? 0 : 495
		const totalMinor = subtotalMinor + shippingMinor
		const status = statusOf(ageDays, random.next())
		const paid = status === 'paid' || status === 'fulfilled' || status === 'refunded'
		const paidAt = paid ? new Date(createdAt.getTime() + random.int(5, 36 * 60) * 60 * 1000) : null
		const shipped = status === 'fulfilled' || (status === 'refunded' && random.chance(0.5))
		const shippedAt = shipped && paidAt ? new Date(paidAt.getTime() + random.int(2, 72) * 60 * 60 * 1000) : null
		// Refunds: every refunded Order in full, and one shipped Order in thirty in part.
		const refundedMinor = status === 'refunded' ? totalMinor : status === 'fulfilled' && random.chance(1 / 30) ? Math.floor(totalMinor / 3) : 0
		const number = 1001 + i
		const guestId = customer ? null : `scale-g-${seed}-${i}`
		yield {
			id: `scale-o-${seed}-${i}`,
			number,
			tokenHash: createHash('sha256').update(`scale-order:${seed}:${i}`).digest('hex'),
			userId: customer?.id ?? null,
			guestId,
			email: customer?.email ?? `guest.${i + 1}@example.net`,
			name: customer?.name ?? `${random.pick(FIRST)} ${random.pick(LAST)}`,
			addressLine1: `${random.int(1, 240)} Market Street`,
			city,
			postalCode,
			country,
			currency: 'USD',
			subtotalMinor,
			shippingMinor,
			shippingName: shippingMinor > 0 ? 'Standard' : 'Free shipping',
			totalMinor,
			refundedMinor,
			capturedMinor: paid ? totalMinor : 0,
			status,
			idempotencyKey: `scale-${seed}-${i}`,
			paidAt,
			shippedAt,
			carrier: shippedAt ? 'DHL' : null,
			trackingNumber: shippedAt ? `JD${String(number).padStart(12, '0')}` : null,
			createdAt,
			updatedAt: shippedAt ?? paidAt ?? createdAt,
			lines,
		}
	}
}
