import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProduct, newGuest } from '../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import type { Db } from '../data/db.server'
import { cartRepository } from './cart.server'

describe.each(PROVIDERS)('a cart’s count in the header, and its lines, on %s [R2]', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	it('answers 0 for a guestId this GET minted, without asking the database', async () => {
		const refusing = new Proxy(t.db, {
			get: (target, key) =>
				key === 'cartLine' || key === 'cart' ? new Proxy({}, { get: () => () => Promise.reject(new Error('queried')) }) : Reflect.get(target, key),
		}) as Db
		expect(await cartRepository(refusing, { ...newGuest(t.storeId), fresh: true }).itemCount()).toBe(0)
		// The same id on a later request (no longer fresh) is read from the database.
		await expect(cartRepository(refusing, newGuest(t.storeId)).itemCount()).rejects.toThrow('queried')
	})

	it('counts what a returning guest holds', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 10 })
		const guest = { kind: 'guest' as const, storeId: t.storeId, guestId: randomUUID() }
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
		expect(await cartRepository(t.db, guest).itemCount()).toBe(2)
	})

	it('lists lines in the order they were added, also when two were added within the same millisecond', async () => {
		const guest = newGuest(t.storeId)
		const cart = cartRepository(t.db, guest)
		// Created newest first, so neither the products' nor the variants' ids follow the adds.
		const later = await createProduct(t.db, t.storeId)
		const first = await createProduct(t.db, t.storeId)
		await cart.add({ productId: first.id, quantity: 1 })
		await cart.add({ productId: later.id, quantity: 1 })
		// Two adds in one millisecond share a createdAt: the order must not then come from the index.
		const { count } = await t.db.cartLine.updateMany({
			where: { cart: { storeId: t.storeId, guestId: guest.guestId } },
			data: { createdAt: new Date('2026-01-01T00:00:00.000Z') },
		})
		expect(count).toBe(2)
		expect((await cart.summary()).lines.map((line) => line.product.id)).toEqual([first.id, later.id])
	})

	it('adds every one of several adds at the same moment to one new cart, none failing [R143]', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 50 })
		const guest = newGuest(t.storeId)
		const adds = await Promise.allSettled(Array.from({ length: 6 }, () => cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })))
		expect(adds.filter((add) => add.status === 'rejected')).toEqual([])
		const lines = await t.db.cartLine.findMany({ where: { cart: { storeId: t.storeId, guestId: guest.guestId } }, select: { quantity: true } })
		expect(lines).toEqual([{ quantity: 12 }])
	})

	it('lets adds at the same moment take the stock once, refusing the rest with a 409 [R143]', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 3 })
		const guest = newGuest(t.storeId)
		const adds = await Promise.allSettled(Array.from({ length: 6 }, () => cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })))
		expect(adds.filter((add) => add.status === 'fulfilled')).toHaveLength(3)
		for (const add of adds) if (add.status === 'rejected') expect(add.reason).toMatchObject({ status: 409 })
		const lines = await t.db.cartLine.findMany({ where: { cart: { storeId: t.storeId, guestId: guest.guestId } }, select: { quantity: true } })
		expect(lines).toEqual([{ quantity: 3 }])
	})
})
