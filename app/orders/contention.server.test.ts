import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, stockOf } from '../../tests/helpers/commerce'
import { PROVIDERS, openPrivateTestDatabase } from '../../tests/helpers/databases'
import { holdRowLock } from '../../tests/helpers/locks'
import { cartRepository } from '../cart/cart.server'
import { createDb } from '../data/db.server'
import { DomainError, StoreBusyError } from '../errors.server'
import { placeOrder } from './checkout.server'
import { isContention, limitLockWaits, retryOnContention } from './contention.server'

const failing = (errors: unknown[], result = 'placed') => {
	let calls = 0
	const attempt = async () => {
		const error = errors[calls++]
		if (error) throw error
		return result
	}
	return { attempt, calls: () => calls }
}

describe('retryOnContention', () => {
	const policy = { attempts: 3, windowMs: 60_000, lockTimeoutMs: 100, transaction: { maxWait: 100, timeout: 100 } }

	it('tries again after contention and returns what the first successful try returns [R67]', async () => {
		const run = failing([{ code: 'P2034' }, { code: 'P2028' }])
		await expect(retryOnContention(run.attempt, policy)).resolves.toBe('placed')
		expect(run.calls()).toBe(3)
	})

	it('gives up with StoreBusyError after the bounded number of tries [R67]', async () => {
		const run = failing([{ code: 'P2034' }, { code: 'P1008' }, { code: 'P2034' }, undefined])
		await expect(retryOnContention(run.attempt, policy)).rejects.toBeInstanceOf(StoreBusyError)
		expect(run.calls()).toBe(3)
	})

	it('starts no new try once the window has passed [R67]', async () => {
		const run = failing([{ code: 'P2034' }, undefined])
		await expect(retryOnContention(run.attempt, { ...policy, windowMs: 0 })).rejects.toBeInstanceOf(StoreBusyError)
		expect(run.calls()).toBe(1)
	})

	it('passes every other error through at once, untried again [R67]', async () => {
		for (const error of [new DomainError(409, 'Out of stock'), { code: 'P2002' }, new Error('a bug')]) {
			const run = failing([error])
			await expect(retryOnContention(run.attempt, policy)).rejects.toBe(error)
			expect(run.calls()).toBe(1)
		}
	})
})

describe.each(PROVIDERS)('contention on %s, as the engine reports it [R67]', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>

	beforeAll(async () => {
		// A database of its own: on SQLite the locks below stop every writer of the file.
		t = await openPrivateTestDatabase(provider)
		await offline(t.db, t.storeId)
	})
	afterAll(() => t?.close())

	const caught = (promise: Promise<unknown>) =>
		promise.then(
			() => null,
			(error: unknown) => error,
		)

	it('recognises a write that met another transaction’s lock [R67]', async () => {
		const product = await createProduct(t.db, t.storeId)
		const release = await holdRowLock(t.url, product.id)
		try {
			const error = await caught(
				t.db.$transaction(async (tx) => {
					await limitLockWaits(t.db, tx)
					// Past lock_timeout on PostgreSQL; at once (busy) on SQLite.
					await tx.productVariant.update({ where: { id: product.variantId }, data: { stock: 1 } })
				}),
			)
			expect(error).not.toBeNull()
			expect(isContention(error)).toBe(true)
		} finally {
			await release()
		}
	})

	it('recognises a transaction that outlived its timeout [R67]', async () => {
		const error = await caught(
			t.db.$transaction(
				async (tx) => {
					await new Promise((resolve) => setTimeout(resolve, 150))
					await tx.product.count()
				},
				{ timeout: 20 },
			),
		)
		expect((error as { code?: string })?.code).toBe('P2028')
		expect(isContention(error)).toBe(true)
	})

	it('does not take a unique violation or a plain error for contention [R67]', async () => {
		const product = await createProduct(t.db, t.storeId)
		const duplicate = await caught(t.db.product.create({ data: { storeId: t.storeId, slug: product.slug, title: 'Twin', priceMinor: 1 } }))
		expect((duplicate as { code?: string })?.code).toBe('P2002')
		expect(isContention(duplicate)).toBe(false)
		expect(isContention(new Error('deadlock in the prose only'))).toBe(false)
		expect(isContention(null)).toBe(false)
	})

	it('waits out a lock held briefly, then places the Order [R67]', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 4 })
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const release = await holdRowLock(t.url, product.id)
		const placing = placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		await new Promise((resolve) => setTimeout(resolve, 300))
		await release()
		const { order } = await placing
		expect(order.totalMinor).toBe(1500)
		expect(await stockOf(t.db, product.variantId)).toBe(3)
	})

	it('answers StoreBusyError while the row stays locked: no Order, stock and cart as they were [R67]', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 4 })
		const guest = newGuest(t.storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 2 })
		const key = randomUUID()
		const counter = () => t.db.store.findUniqueOrThrow({ where: { id: t.storeId }, select: { lastOrderNumber: true } })
		const before = await counter()
		const release = await holdRowLock(t.url, product.id)
		let error: unknown
		try {
			error = await caught(placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: key }))
		} finally {
			await release()
		}
		expect(error).toBeInstanceOf(StoreBusyError)
		expect((error as StoreBusyError).retryAfterSeconds).toBeGreaterThan(0)
		expect(await t.db.order.count({ where: { storeId: t.storeId, idempotencyKey: key } })).toBe(0)
		expect(await stockOf(t.db, product.variantId)).toBe(4)
		expect((await cartRepository(t.db, guest).summary()).lines.map((line) => [line.product.id, line.quantity])).toEqual([[product.id, 2]])
		// The order number was given back with the rest.
		expect(await counter()).toEqual(before)
	})
})

describe('SQLite shared by two processes [R67]', () => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	beforeAll(async () => {
		t = await openPrivateTestDatabase('sqlite')
	})
	afterAll(() => t?.close())

	it('recognises a write refused because another process moved the database past this transaction’s snapshot', async () => {
		const product = await createProduct(t.db, t.storeId, { stock: 5 })
		const other = createDb(t.url)
		try {
			const error = await t.db
				.$transaction(async (tx) => {
					await tx.productVariant.findUniqueOrThrow({ where: { id: product.variantId }, select: { stock: true } })
					// Another process (init, a second server) commits a write in between.
					await other.productVariant.update({ where: { id: product.variantId }, data: { stock: { decrement: 1 } } })
					await tx.productVariant.update({ where: { id: product.variantId }, data: { stock: { decrement: 1 } } })
				})
				.then(
					() => null,
					(caught: unknown) => caught,
				)
			// SQLite's own code, as the driver adapter passes it on (Prisma words it "timed out").
			const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string; originalMessage?: string } } } } | null)?.meta
				?.driverAdapterError?.cause
			expect(cause?.originalCode).toMatch(/^SQLITE_BUSY/)
			expect(cause?.originalMessage).toMatch(/database is locked/)
			expect(isContention(error)).toBe(true)
		} finally {
			await other.$disconnect()
		}
	})
})
