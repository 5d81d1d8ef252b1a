import { isEnabled } from '../config/capabilities'
import type { StoreScope } from '../data/scope'

/**
 * Order claiming [R2, R71, R70]: built, and off until its capability is Stable in
 * app/config/capabilities.ts. Once on, a newly
 * registered Shopper claims only the guest Orders placed from the same browser (the same
 * signed guestId: proof of possession), never Orders that merely share the email address.
 */
export async function claimGuestOrders(
	{ db, storeId }: StoreScope,
	{ userId, guestId, enabled = isEnabled('guest-order-claiming') }: { userId: string; guestId: string | null; enabled?: boolean },
) {
	if (!enabled || !guestId) return 0
	const claimed = await db.order.updateMany({ where: { storeId, guestId, userId: null }, data: { userId } })
	return claimed.count
}
