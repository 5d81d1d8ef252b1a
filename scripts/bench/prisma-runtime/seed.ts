/**
 * The rows every workload reads, written once through the store's own client (createDb, 6.19.3):
 * one Store, 200 active and 40 draft Products of 3 variants each, a shipping zone with a rate, a
 * tax rate, an offline Connection, 100 users with 1000 sessions, and one guest cart of two lines
 * per concurrent checkout worker (no variant shared between carts; their stock never runs out).
 */
import { randomBytes } from 'node:crypto'
import { createDb } from '../../../app/data/db.server'
import type { Fixture } from './workloads'

export async function seed(url: string, carts: number): Promise<Fixture> {
	const db = createDb(url)
	try {
		const store = await db.store.create({ data: { handle: 'bench', name: 'Bench Store' }, select: { id: true } })
		const storeId = store.id
		const base = Date.UTC(2026, 0, 1)
		const products = Array.from({ length: 240 }, (_, i) => ({
			id: `prod_${String(i).padStart(4, '0')}`,
			storeId,
			slug: `product-${i}`,
			title: `Product ${i}`,
			description: `A product of the bench catalog, number ${i}, with a description of ordinary length for a card.`,
			priceMinor: 1000 + i,
			optionNames: '["Size"]',
			status: i % 6 === 5 ? 'draft' : 'active',
			imageKey: `stores/${storeId}/uploads/${i}.webp`,
			createdAt: new Date(base + i * 60_000),
		}))
		await db.product.createMany({ data: products })
		const sizes = ['S', 'M', 'L']
		await db.productVariant.createMany({
			data: products.flatMap((product, i) =>
				sizes.map((size, position) => ({
					id: `var_${String(i).padStart(4, '0')}_${position}`,
					storeId,
					productId: product.id,
					optionValues: JSON.stringify([size]),
					title: size,
					sku: `SKU-${i}-${size}`,
					priceMinor: product.priceMinor + position * 100,
					stock: 1_000_000_000,
					position,
				})),
			),
		})
		const zone = await db.shippingZone.create({ data: { storeId, name: 'Europe', countries: 'DE,FR,NL,US' }, select: { id: true } })
		const rate = await db.shippingRate.create({
			data: { storeId, zoneId: zone.id, name: 'Standard', priceMinor: 495, freeOverMinor: 1_000_000 },
			select: { id: true },
		})
		await db.taxRate.create({ data: { storeId, country: 'DE', rateBasisPoints: 1900 } })
		await db.connection.create({ data: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank transfer' } })

		const users = Array.from({ length: 100 }, (_, i) => ({ id: `user_${i}`, name: `User ${i}`, email: `user${i}@bench.test`, storeId }))
		await db.user.createMany({ data: users })
		const tokens = Array.from({ length: 1000 }, () => randomBytes(24).toString('base64url'))
		await db.session.createMany({
			data: tokens.map((token, i) => ({
				id: `sess_${i}`,
				token,
				userId: `user_${i % users.length}`,
				storeId,
				expiresAt: new Date(Date.now() + 7 * 86_400_000),
				ipAddress: '127.0.0.1',
				userAgent: 'prisma-runtime-bench',
			})),
		})

		const guestIds: string[] = []
		for (let c = 0; c < carts; c++) {
			const guestId = `bench-guest-${c}`
			guestIds.push(guestId)
			const cart = await db.cart.create({ data: { storeId, guestId }, select: { id: true } })
			// Products 0,1 for cart 0, 2,3 for cart 1, …: active ones only (every sixth is a draft).
			const picks = products.filter((product) => product.status === 'active').slice(c * 2, c * 2 + 2)
			await db.cartLine.createMany({
				data: picks.map((product, line) => ({
					cartId: cart.id,
					productId: product.id,
					variantId: `${product.id.replace('prod_', 'var_')}_${line}`,
					quantity: 1 + line,
					createdAt: new Date(base + line * 1000),
				})),
			})
		}
		return { storeId, connectionHandle: 'offline', shippingRateId: rate.id, country: 'DE', guestIds, tokens }
	} finally {
		await db.$disconnect()
	}
}
