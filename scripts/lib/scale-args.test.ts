import { describe, expect, it } from 'vitest'
import { parseScaleArgs } from './scale-args'
import { customersOf, ordersOf, productsOf } from './scale-rows'

describe('npm run seed:scale arguments', () => {
	it('reads the sizes, the seed (1 unless given) and the admin email', () => {
		expect(parseScaleArgs(['--products', '10', '--orders', '20', '--customers', '3'])).toEqual({
			ok: true,
			size: { products: 10, orders: 20, customers: 3, seed: 1 },
			adminEmail: 'scale-admin@example.com',
		})
		const parsed = parseScaleArgs(['--seed', '7', '--customers', '0', '--orders', '0', '--products', '1', '--admin-email', 'Ops@Shop.test'])
		expect(parsed).toMatchObject({ ok: true, size: { products: 1, orders: 0, customers: 0, seed: 7 }, adminEmail: 'ops@shop.test' })
	})

	it.each([
		[[], '--products is required'],
		[['--products', '10', '--orders', '5'], '--customers is required'],
		[['--products', '-1', '--orders', '5', '--customers', '1'], '--products must be a whole number'],
		[['--products', '1.5', '--orders', '5', '--customers', '1'], '--products must be a whole number'],
		[['--products', '1e4', '--orders', '5', '--customers', '1'], '--products must be a whole number'],
		[['--products', '10', '--orders', '99999999', '--customers', '1'], '--orders must be a whole number up to'],
		[['--products', '0', '--orders', '5', '--customers', '1'], '--products must be at least 1'],
		[['--products', '10', '--orders', '5', '--customers', '1', '--force'], 'unknown argument "--force"'],
		[['--products', '--orders', '5'], '--products needs a value'],
		[['--products', '1', '--orders', '1', '--customers', '1', '--admin-email', 'nobody'], '--admin-email must be an email address'],
	])('refuses %j with a message', (args, message) => {
		const parsed = parseScaleArgs(args)
		expect(parsed.ok).toBe(false)
		expect(parsed.ok ? '' : parsed.message).toContain(message)
	})
})

describe('the rows of a store of a given size', () => {
	const size = { products: 60, orders: 400, customers: 30, seed: 3 }
	const now = Date.UTC(2026, 0, 15)
	const all = (seed: number) => {
		const products = productsOf({ ...size, seed }, now)
		const customers = customersOf({ ...size, seed }, now)
		return { products, customers, orders: [...ordersOf({ ...size, seed }, now, products, customers)] }
	}

	it('are the same for the same seed and differ for another', () => {
		expect(all(3)).toEqual(all(3))
		expect(all(4).products.map((p) => p.title)).not.toEqual(all(3).products.map((p) => p.title))
	})

	it('spread over two years with every status, variants on a third of the products, refunds and guests', () => {
		const { products, orders } = all(3)
		expect(products.filter((p) => p.variants.length > 1)).toHaveLength(20)
		expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['awaiting_payment', 'paid', 'fulfilled', 'cancelled', 'refunded']))
		expect(orders.some((o) => o.refundedMinor > 0 && o.status === 'fulfilled')).toBe(true)
		expect(orders.some((o) => o.userId === null) && orders.some((o) => o.userId !== null)).toBe(true)
		const days = (o: { createdAt: Date }) => (now - o.createdAt.getTime()) / 86_400_000
		expect(Math.max(...orders.map(days))).toBeGreaterThan(700)
		expect(Math.min(...orders.map(days))).toBeLessThan(3)
		expect(orders.map((o) => o.number)).toEqual(orders.map((_, i) => 1001 + i))
		for (const order of orders) expect(order.totalMinor).toBe(order.lines.reduce((sum, l) => sum + l.lineTotalMinor, 0) + order.shippingMinor)
	})
})
