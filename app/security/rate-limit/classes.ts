/**
 * [R50] four rate limits, one per route class. Every route of app/routes.ts has an entry
 * here, by route id (a test walks the route table, so a new route without a class fails).
 * `read` classes GET/HEAD requests, `write` every other method. `form: true` marks pages whose
 * actions render the 429 beside their own form instead of an error page.
 */
export type RouteClass = 'authentication' | 'sensitive' | 'admin' | 'general'

type Entry = { read: RouteClass; write: RouteClass; form?: boolean }

const page: Entry = { read: 'general', write: 'general' }
const admin: Entry = { read: 'admin', write: 'admin' }

export const ROUTE_CLASSES: Readonly<Record<string, Entry>> = {
	root: page,
	'routes/store/home': page,
	// Writing a review is Sensitive: one write per account and product, refused beside the form.
	'routes/store/product': { read: 'general', write: 'sensitive', form: true },
	// Search reads the database on every request (nothing to cache): a page, like the catalog.
	'routes/store/search': page,
	'routes/store/collections': page,
	'routes/store/collection': page,
	'routes/store/cart': page,
	// [R50] names these Sensitive: Checkout requests, Checkout sessions, payment intents, newsletter.
	'routes/store/checkout': { read: 'general', write: 'sensitive', form: true },
	'routes/store/order': { read: 'general', write: 'sensitive' },
	'routes/store/newsletter': { read: 'general', write: 'sensitive', form: true },
	'routes/store/newsletter-unsubscribe': { read: 'sensitive', write: 'sensitive', form: true },
	'routes/store/newsletter-confirm': { read: 'sensitive', write: 'sensitive', form: true },
	'routes/store/media': { read: 'general', write: 'admin' },
	'routes/store/not-found': page,
	'routes/store/policy': page,
	'routes/store/theme': page,
	'routes/auth/sign-up': { read: 'general', write: 'authentication', form: true },
	'routes/auth/forgot-password': { read: 'general', write: 'authentication', form: true },
	'routes/auth/reset-password': { read: 'authentication', write: 'authentication', form: true },
	'routes/auth/sign-in': { read: 'general', write: 'authentication', form: true },
	'routes/auth/sign-in-sso': { read: 'general', write: 'authentication' },
	// the code step of a password sign-in; guessing codes is guessing a credential.
	'routes/auth/sign-in-two-factor': { read: 'general', write: 'authentication', form: true },
	'routes/auth/sign-out': { read: 'general', write: 'authentication' },
	'routes/account/account': page,
	'routes/account/password': { read: 'general', write: 'authentication', form: true },
	'routes/account/security': { read: 'general', write: 'authentication' },
	'routes/account/orders': page,
	'routes/account/order': page,
	'routes/admin/layout': admin,
	'routes/admin/dashboard': admin,
	'routes/admin/store': admin,
	'routes/admin/shipping': admin,
	'routes/admin/activity': admin,
	'routes/admin/email': admin,
	'routes/admin/newsletter': admin,
	'routes/admin/newsletter-export': admin,
	'routes/admin/newsletter-campaigns': admin,
	'routes/admin/discounts': admin,
	'routes/admin/discount-new': admin,
	'routes/admin/discount-edit': admin,
	'routes/admin/reviews': admin,
	'routes/admin/products': admin,
	'routes/admin/products-export': admin,
	'routes/admin/product-new': admin,
	'routes/admin/product-edit': admin,
	'routes/admin/collections': admin,
	'routes/admin/collection': admin,
	'routes/admin/orders': admin,
	'routes/admin/orders-export': admin,
	'routes/admin/order': admin,
	'routes/admin/packing-slip': admin,
	'routes/admin/customers': admin,
	'routes/admin/customer': admin,
	'routes/admin/customer-guest': admin,
	'routes/admin/uploads': admin,
	'routes/admin/events': admin,
	'routes/admin/connections': admin,
	// better-auth: reading a session is General; signing in, up, out and every other change is Authentication.
	'routes/api/auth': { read: 'general', write: 'authentication' },
	'routes/api/upload': admin,
	// Providers retry failed deliveries for days; their events are not throttled harder than pages.
	'routes/api/events': page,
	'routes/api/healthz': page,
	'routes/api/readyz': page,
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function classify(routeId: string | undefined, method: string): { routeClass: RouteClass; form: boolean } {
	const entry = (routeId && ROUTE_CLASSES[routeId]) || page
	const write = !READS.has(method.toUpperCase())
	return { routeClass: write ? entry.write : entry.read, form: write && entry.form === true }
}
