import { isEnabled } from '../config/capabilities'
import type { Db } from '../data/db.server'

/**
 * Order claiming (spec 2, 3.2, 9): built but Experimental and OFF. When switched on, a newly
 * registered Shopper claims only the guest Orders placed from the same browser (the same
 * signed guestId: proof of possession), never Orders that merely share the email address.
 */
export async function claimGuestOrders({
	db,
	storeId,
	userId,
	guestId,
	enabled = isEnabled('guest-order-claiming', { requireStable: true }),
}: {
	db: Db
	storeId: string
	userId: string
	guestId: string | null
	enabled?: boolean
}) {
	if (!enabled || !guestId) return 0
	const claimed = await db.order.updateMany({ where: { storeId, guestId, userId: null }, data: { userId } })
	return claimed.count
}
