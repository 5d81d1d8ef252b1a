import type { PaymentStart } from '../types'

/**
 * The built-in offline provider (bank transfer or pay on delivery): nothing to call.
 * The Order stays `awaiting_payment` until a Store Admin marks it paid.
 */
export function startOfflinePayment(): PaymentStart {
	return { providerRef: null, redirectTo: null }
}
