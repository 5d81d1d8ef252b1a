/**
 * Spec 9: every capability is Experimental until it earns evidence; only the release
 * notes promote one to Stable. `offered: false` marks a target behaviour that is not
 * switched on at all (spec 3.2: guest orders are not claimed on registration).
 */
export type Maturity = 'experimental' | 'stable'

export type Capability = {
	id: string
	title: string
	maturity: Maturity
	offered: boolean
}

export const CAPABILITIES: readonly Capability[] = [
	{ id: 'email-sign-in', title: 'Email and password sign-in', maturity: 'experimental', offered: true },
	{ id: 'store-admin', title: 'Store Admin access', maturity: 'experimental', offered: true },
	{ id: 'store-profile', title: 'Store profile', maturity: 'experimental', offered: true },
	{ id: 'guest-tracking', title: 'Guest tracking (guestId)', maturity: 'experimental', offered: true },
	{ id: 'catalog', title: 'Catalog and product pages', maturity: 'experimental', offered: true },
	{ id: 'carts', title: 'Guest and customer carts (merged at sign-in)', maturity: 'experimental', offered: true },
	{ id: 'checkout', title: 'Checkout (offline payment, Stripe Checkout)', maturity: 'experimental', offered: true },
	{ id: 'newsletter', title: 'Newsletter subscribe and unsubscribe', maturity: 'experimental', offered: true },
	{ id: 'uploads', title: 'Uploads into Store-scoped storage', maturity: 'experimental', offered: true },
	{ id: 'activity-log', title: 'Store Admin activity log', maturity: 'experimental', offered: true },
	{ id: 'store-admin-commerce', title: 'Store Admin products, orders and connections', maturity: 'experimental', offered: true },
	{ id: 'provider-events', title: 'Provider events (Stripe, Standard Webhooks) and the inbox', maturity: 'experimental', offered: true },
	{ id: 'rate-limits', title: 'Rate limits (four route classes, memory or Redis)', maturity: 'experimental', offered: true },
	{ id: 'guest-order-claiming', title: 'Claiming guest Orders on registration', maturity: 'experimental', offered: false },
	// Offered when both SVC_ADMIN_OAUTH_CLIENT_* values are set (app/auth/sso.server.ts).
	{ id: 'managed-sign-in', title: 'Managed single sign-on for Store Admin (when configured)', maturity: 'experimental', offered: true },
	{ id: 'account-sessions', title: 'Your sessions at /account/security', maturity: 'experimental', offered: true },
]

/** Whether a behaviour may run: offered, and Stable when the spec demands it be proven first. */
export function isEnabled(id: string, { requireStable = false } = {}) {
	const capability = CAPABILITIES.find((c) => c.id === id)
	if (!capability) throw new Error(`Unknown capability: ${id}`)
	return capability.offered && (!requireStable || capability.maturity === 'stable')
}
