import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, createProduct, offline } from '../../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin, signUpCustomer } from '../../../tests/helpers/databases'
import { cartRepository } from '../../cart/cart.server'
import type { AdminViewer, UserViewer } from '../../data/viewer'
import { DomainError } from '../../errors.server'
import { placeOrder } from '../../orders/checkout.server'
import { adminRepositoriesFor, repositoriesFor } from '../../repositories.server'

const REVIEW = { rating: 4, title: 'Sturdy', body: 'Carries a week of groceries.' }

describe.each(PROVIDERS)('product reviews on %s [R31]', (provider) => {
	let t: TestDatabase
	let product: { id: string }
	let buyer: UserViewer
	let admin: AdminViewer

	const customer = async (): Promise<UserViewer> => {
		const { userId, email } = await signUpCustomer(t.auth)
		return { kind: 'user', role: 'user', storeId: t.storeId, userId, email, name: 'Ada <b>Buyer</b>' }
	}
	/** An Order of `viewer` for `product`, left in `status`. */
	const bought = async (viewer: UserViewer, status: string, what = product) => {
		await cartRepository(t.db, viewer).add({ productId: what.id, quantity: 1 })
		const { order } = await placeOrder({
			db: t.db,
			viewer,
			details: { ...DETAILS, email: viewer.email },
			connectionHandle: 'offline',
			idempotencyKey: randomUUID(),
		})
		await t.db.order.update({ where: { id: order.id }, data: { status } })
	}
	const refused = async (promise: Promise<unknown>, status: number) => {
		const error = await promise.then(
			() => null,
			(e: unknown) => e,
		)
		expect(error).toBeInstanceOf(DomainError)
		expect((error as DomainError).status).toBe(status)
	}
	const rows = (productId = product.id) =>
		t.db
			.$queryRawUnsafe<{ n: unknown }[]>(`SELECT COUNT(*) AS n FROM "mod_reviews" WHERE "product_id" = ${provider === 'postgresql' ? '$1' : '?'}`, productId)
			.then((r) => Number(r[0]?.n))

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		product = await createProduct(t.db, t.storeId, { stock: 50 })
		buyer = await customer()
		await bought(buyer, 'paid')
		admin = (await signUpAdmin(t)).viewer
	}, 60_000)
	afterAll(() => t.db.$disconnect())

	it('refuses a guest, a customer who did not buy, and one whose payment has not arrived, writing nothing', async () => {
		await refused(repositoriesFor({ kind: 'guest', storeId: t.storeId, guestId: randomUUID() }, t.db).reviews.write(product.id, REVIEW), 403)
		await refused(repositoriesFor(await customer(), t.db).reviews.write(product.id, REVIEW), 403)
		const waiting = await customer()
		await bought(waiting, 'awaiting_payment')
		await refused(repositoriesFor(waiting, t.db).reviews.write(product.id, REVIEW), 403)
		const refunded = await customer()
		await bought(refunded, 'refunded')
		await refused(repositoriesFor(refunded, t.db).reviews.write(product.id, REVIEW), 403)
		expect(await rows()).toBe(0)
	})

	it('takes one review per buyer and product, shows it only once approved, with the average and count', async () => {
		const reviews = repositoriesFor(buyer, t.db).reviews
		expect(await reviews.write(product.id, REVIEW)).toBe('created')
		await refused(reviews.write(product.id, { ...REVIEW, rating: 1 }), 409)
		let page = await repositoriesFor({ kind: 'guest', storeId: t.storeId, guestId: randomUUID() }, t.db).reviews.forProduct(product.id)
		expect(page).toMatchObject({ count: 0, average: null, reviews: [] })
		const mine = (await reviews.forProduct(product.id)).mine!
		expect(mine).toMatchObject({ status: 'pending', rating: 4, authorName: 'Ada <b>Buyer</b>' })

		const fulfilled = await customer()
		await bought(fulfilled, 'fulfilled')
		await repositoriesFor(fulfilled, t.db).reviews.write(product.id, { ...REVIEW, rating: 5 })
		const moderation = adminRepositoriesFor(admin, t.db).reviewModeration
		const queue = await moderation.page({ status: 'pending' })
		expect(queue.reviews.filter((r) => r.product?.title).length).toBeGreaterThanOrEqual(2)
		for (const review of queue.reviews.filter((r) => r.product)) await moderation.moderate(review.id, 'approve')
		page = await repositoriesFor({ kind: 'guest', storeId: t.storeId, guestId: randomUUID() }, t.db).reviews.forProduct(product.id)
		expect(page).toMatchObject({ count: 2, average: 4.5 })
		expect(page.reviews.map((r) => r.rating).sort()).toEqual([4, 5])
		// Audited, each with the change.
		expect(await t.db.auditEntry.count({ where: { targetId: mine.id, action: 'review.approve', actorId: admin.userId } })).toBe(1)
	})

	it('edits only the viewer’s own review: another customer’s id is a 404 and nothing changes; an edit is read again', async () => {
		const own = (await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine!
		const stranger = await customer()
		await bought(stranger, 'paid')
		await refused(repositoriesFor(stranger, t.db).reviews.write(product.id, { ...REVIEW, title: 'Hijacked' }, own.id), 404)
		await refused(repositoriesFor(stranger, t.db).reviews.write(product.id, REVIEW, 'no-such-review'), 404)
		expect((await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine).toMatchObject({ title: 'Sturdy', status: 'approved' })
		const shown = () => repositoriesFor({ kind: 'guest', storeId: t.storeId, guestId: randomUUID() }, t.db).reviews.forProduct(product.id)
		expect((await shown()).reviews.map((r) => r.rating).sort()).toEqual([4, 5])
		expect(await repositoriesFor(buyer, t.db).reviews.write(product.id, { ...REVIEW, title: 'Still sturdy' }, own.id)).toBe('updated')
		expect((await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine).toMatchObject({ title: 'Still sturdy', status: 'pending' })
		// Every visitor's page is read again: the edited review waits for moderation, off the page.
		expect(await shown()).toMatchObject({ count: 1, average: 5 })
		expect((await shown()).reviews.map((r) => r.rating)).toEqual([5])
	})

	it('keeps reviews inside their Store: another Store’s admin finds none to moderate, and its product cannot be reviewed here [R4]', async () => {
		const other = await anotherStore(t.db)
		const otherAdmin = { ...admin, storeId: other.id }
		const own = (await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine!
		expect((await adminRepositoriesFor(otherAdmin, t.db).reviewModeration.page({ status: 'pending' })).counts).toEqual({ pending: 0, approved: 0, rejected: 0 })
		await refused(adminRepositoriesFor(otherAdmin, t.db).reviewModeration.moderate(own.id, 'delete'), 404)
		const foreign = await createProduct(t.db, other.id, { stock: 5 })
		await refused(repositoriesFor(buyer, t.db).reviews.write(foreign.id, REVIEW), 403)
		expect(await rows(foreign.id)).toBe(0)
		expect(await rows()).toBeGreaterThan(0)
	})

	it('rejects and deletes, audited; a bad cursor lists from the top', async () => {
		const moderation = adminRepositoriesFor(admin, t.db).reviewModeration
		const own = (await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine!
		await moderation.moderate(own.id, 'reject')
		expect((await repositoriesFor(buyer, t.db).reviews.forProduct(product.id)).mine?.status).toBe('rejected')
		expect((await moderation.page({ status: 'rejected', cursor: 'garbage' })).reviews.map((r) => r.id)).toContain(own.id)
		await moderation.moderate(own.id, 'delete')
		await refused(moderation.moderate(own.id, 'delete'), 404)
		expect(await t.db.auditEntry.findMany({ where: { targetId: own.id }, select: { action: true }, orderBy: { createdAt: 'asc' } })).toEqual(
			expect.arrayContaining([{ action: 'review.reject' }, { action: 'review.delete' }]),
		)
	})
})
