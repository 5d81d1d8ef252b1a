/**
 * Checkout rows of `npm run bench`: submits of the real checkout form by guests who each hold
 * a cart of one product (the same product for all, so every Order takes stock from one row),
 * timed alone (carts are prepared first, and a warm-up of submits runs before, not counted, as
 * the page rows have), and every submit checked to have placed an Order.
 */
import { createDb } from '../../app/data/db.server'
import { cookieHeader } from '../../tests/helpers/http'
import { measure, type Row, type Server } from './servers'

const SLUG = 'field-notebook'

const form = (email: string) =>
	new URLSearchParams({
		email,
		name: 'Bench Buyer',
		addressLine1: '1 Bench Street',
		addressLine2: '',
		city: 'Loadtown',
		postalCode: '12345',
		country: 'US',
		payment: 'offline',
		idempotencyKey: crypto.randomUUID(),
	}).toString()

/** `count` guests with one notebook each in their cart; stock raised so none runs out. */
async function guestsWithCarts(server: Server, count: number, slug = SLUG) {
	const db = createDb(server.databaseUrl)
	try {
		await db.productVariant.updateMany({ data: { stock: 1_000_000 } })
	} finally {
		await db.$disconnect()
	}
	const { base } = server
	const productId = /name="productId" value="([^"]+)"/.exec(await (await fetch(`${base}/products/${slug}`)).text())?.[1] ?? ''
	const guests: string[] = []
	for (let i = 0; i < count; i++) {
		const cookie = cookieHeader((await fetch(`${base}/no-such-page`)).headers)
		const added = await fetch(`${base}/cart`, {
			method: 'POST',
			redirect: 'manual',
			headers: { cookie, origin: base },
			body: new URLSearchParams({ intent: 'add', productId, quantity: '1' }),
		})
		if (added.status !== 302 && added.status !== 303) throw new Error(`adding to a bench cart answered ${added.status}`)
		guests.push(cookie)
	}
	return guests
}

async function placedBy(server: Server, email: string) {
	const db = createDb(server.databaseUrl)
	try {
		return await db.order.count({ where: { email } })
	} finally {
		await db.$disconnect()
	}
}

/** `guests` each submit the checkout once, `connections` at once (autocannon), as `email`. */
async function submitAll(server: Server, guests: string[], connections: number, email: string) {
	let next = 0
	return measure('POST /checkout (offline, new Order)', {
		url: server.base,
		connections,
		amount: guests.length,
		requests: [
			{
				method: 'POST',
				path: '/checkout',
				setupRequest: (request) => {
					const cookie = guests[next++ % guests.length] ?? ''
					const headers = { ...request.headers, cookie, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' }
					return { ...request, headers, body: form(email) }
				},
			},
		],
	})
}

/**
 * Checkout submits at `connections` at once, one new guest per submit, after `warmUp` submits of
 * other guests that are not counted.
 */
export async function checkoutRow(
	server: Server,
	{ connections, count = 400, warmUp = 100, slug = SLUG }: { connections: number; count?: number; warmUp?: number; slug?: string },
): Promise<Row & { placed: number }> {
	const guests = await guestsWithCarts(server, count + warmUp, slug)
	if (warmUp > 0) await submitAll(server, guests.slice(count), connections, `bench-warm-up-${Date.now()}@example.com`)
	const email = `bench-${Date.now()}@example.com`
	const row = await submitAll(server, guests.slice(0, count), connections, email)
	// The row counts only if every submit really placed an Order.
	const placed = await placedBy(server, email)
	return { ...row, route: `${row.route}: ${placed} of ${count} placed`, placed }
}

/**
 * `rounds` bursts of `at` checkouts sent at the same instant, all taking the same product's
 * stock: the contention PostgreSQL once answered with 500s. An error is any answer but the
 * redirect to the new Order, or a submit that placed none.
 */
export async function checkoutBursts(server: Server, { at = 48, rounds = 3 }: { at?: number; rounds?: number } = {}) {
	const guests = await guestsWithCarts(server, at * rounds)
	const email = `burst-${Date.now()}@example.com`
	let errors = 0
	const latencies: number[] = []
	const started = performance.now()
	for (let round = 0; round < rounds; round++) {
		await Promise.all(
			guests.slice(round * at, (round + 1) * at).map(async (cookie) => {
				const sent = performance.now()
				try {
					const response = await fetch(`${server.base}/checkout`, {
						method: 'POST',
						redirect: 'manual',
						headers: { cookie, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
						body: form(email),
					})
					await response.arrayBuffer()
					if (response.status !== 302 && response.status !== 303) errors++
				} catch {
					errors++
				}
				latencies.push(performance.now() - sent)
			}),
		)
	}
	const seconds = (performance.now() - started) / 1000
	const placed = await placedBy(server, email)
	latencies.sort((a, b) => a - b)
	return {
		submits: at * rounds,
		at,
		errors: Math.max(errors, at * rounds - placed),
		placed,
		ordersPerSecond: Math.round((placed / seconds) * 10) / 10,
		p50: Math.round(latencies[Math.floor(latencies.length / 2)] ?? Number.NaN),
		max: Math.round(latencies.at(-1) ?? Number.NaN),
	}
}
