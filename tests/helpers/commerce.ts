import { randomUUID } from 'node:crypto'
import type { Db } from '../../app/data/db.server'
import type { GuestViewer, UserViewer } from '../../app/data/viewer'
import { ensureOfflineConnection } from '../../app/payments/connections.server'
import { unverifiedScope } from '../../app/data/scope'

/** An active Product of `storeId` with a unique slug. */
export function createProduct(db: Db, storeId: string, data: Partial<{ title: string; priceMinor: number; stock: number; status: string }> = {}) {
	const slug = `p-${randomUUID().slice(0, 12)}`
	return db.product.create({
		data: {
			storeId,
			slug,
			title: data.title ?? `Product ${slug}`,
			priceMinor: data.priceMinor ?? 1500,
			stock: data.stock ?? 10,
			status: data.status ?? 'active',
		},
		select: { id: true, slug: true, title: true, priceMinor: true },
	})
}

export const newGuest = (storeId: string): GuestViewer => ({ kind: 'guest', storeId, guestId: randomUUID() })

export const asCustomer = (storeId: string, userId: string, email: string, guestId?: string): UserViewer => ({
	kind: 'user',
	role: 'user',
	storeId,
	userId,
	email,
	name: 'Shopper',
	guestId,
})

export const DETAILS = {
	email: 'buyer@example.com',
	name: 'Ada Buyer',
	addressLine1: '1 Market Street',
	addressLine2: '',
	city: 'Springfield',
	postalCode: '12345',
	country: 'US',
}

export async function offline(db: Db, storeId: string) {
	return ensureOfflineConnection(unverifiedScope(db, storeId))
}
