/**
 * The capability registry [R70]: what the store offers, the rule each capability implements, its
 * maturity, and the proof tests that are its evidence.
 *
 * A capability is Experimental until it earns evidence. It may be marked Stable only when every
 * one of its proof tests exists and passed in the same test run: `npm test` reads the runners'
 * JSON reports and fails otherwise (scripts/lib/maturity.ts). The release guidance in
 * docs/releases/ is generated from this list (`npm run release-notes`), and behaviour follows it:
 * order claiming runs only once its capability is Stable [R71].
 */
export type Maturity = 'experimental' | 'stable'

/** One test that is evidence: its file (from the repository root) and its own title, exactly. */
export type Proof = { file: string; title: string }

export type Capability = {
	id: string
	title: string
	/** The rules of docs/security-model.md it implements. */
	rules: readonly string[]
	maturity: Maturity
	offered: boolean
	/** Built, but runs only once the capability is Stable: the spec asks for proof first [R71]. */
	requiresStable?: boolean
	/** What a user must not rely on while it is Experimental (shown in the release guidance). */
	caveat?: string
	proof: readonly Proof[]
}

const proof = (file: string, ...titles: string[]): Proof[] => titles.map((title) => ({ file, title }))

export const CAPABILITIES: readonly Capability[] = [
	{
		id: 'email-sign-in',
		title: 'Email and password sign-in',
		rules: ['R20', 'R21', 'R22'],
		maturity: 'stable',
		offered: true,
		proof: [
			...proof(
				'app/auth/auth.server.test.ts',
				'hashes the password with scrypt, never storing it in clear [R20]',
				'offers no social sign-in, whatever credentials the environment holds [R22]',
				'registers no password-reset flow [R21]',
			),
			...proof(
				'app/auth/user-reads.server.test.ts',
				'refuses a banned user the right password and creates no session [R20]',
				'remembers nothing from one call to the next: a ban between two sign-ins refuses the second [R20]',
			),
			...proof(
				'tests/e2e/auth.spec.ts',
				'a shopper signs up, signs out and signs in again [R20]',
				'a wrong password and an unknown email get the same generic 401 answer [R20] (no account enumeration)',
			),
		],
	},
	{
		id: 'store-admin',
		title: 'Store Admin access (the admin role on every loader and action)',
		rules: ['R5', 'R23', 'R29'],
		maturity: 'stable',
		offered: true,
		proof: [
			...proof(
				'tests/e2e/admin.spec.ts',
				'an unauthenticated visit to /admin goes to sign-in, and the seeded admin comes back to /admin [R5, R23]',
				'a signed-in Customer gets the 403 page on /admin and /admin/store [R5]',
			),
			...proof(
				'app/auth/seed-admin.server.test.ts',
				'refuses the published password in production whatever the email, changing nothing [R23]',
				'takes the admin role, its password, every session and reset link from the published account when a later init names another admin [R23, R29]',
			),
		],
	},
	{
		id: 'store-profile',
		title: 'Store profile and look (name, currency, logo, accent colour, policy pages)',
		rules: ['R5', 'R118', 'R120'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{ id: 'guest-tracking', title: 'Guest tracking (guestId)', rules: ['R2'], maturity: 'experimental', offered: true, proof: [] },
	{ id: 'catalog', title: 'Catalog and product pages', rules: ['R4'], maturity: 'experimental', offered: true, proof: [] },
	{ id: 'carts', title: 'Guest and customer carts (merged at sign-in)', rules: ['R2'], maturity: 'experimental', offered: true, proof: [] },
	{
		id: 'checkout',
		title: 'Checkout (offline payment with instructions, Stripe Checkout; shipping zones and rates, taxes per country)',
		rules: ['R67', 'R119'],
		maturity: 'experimental',
		offered: true,
		caveat:
			'Shipping is a flat rate per zone (no weights, no carrier quotes); tax is one rate per country on goods and shipping together; currencies with two decimals only.',
		proof: [],
	},
	{
		id: 'newsletter',
		title: 'Newsletter: double opt-in, an unsubscribe link and one-click headers in every mail (when sending is configured)',
		rules: ['R40', 'R50', 'R122'],
		maturity: 'experimental',
		offered: true,
		caveat: 'The store keeps the list but composes no newsletter: send yours with a tool that honours its unsubscribe links.',
		proof: [],
	},
	{
		id: 'order-mail',
		title: 'Order mail through a transactional outbox (when sending is configured)',
		rules: ['R13'],
		maturity: 'experimental',
		offered: true,
		caveat: 'Delivery is at least once: after a crash between sending and recording it, a mail is sent again with the same Message-ID.',
		proof: [],
	},
	{
		id: 'password-recovery',
		title: 'Password recovery by email (PASSWORD_RECOVERY=on, with sending configured)',
		rules: ['R21', 'R28'],
		maturity: 'experimental',
		offered: true,
		caveat: 'Off by default. When on, anyone who controls an account’s mailbox controls the account, admins included.',
		proof: [],
	},
	{
		id: 'uploads',
		title: 'Uploads into Store-scoped storage',
		rules: ['R33', 'R34'],
		maturity: 'stable',
		offered: true,
		proof: [
			...proof(
				'app/uploads/uploads.server.test.ts',
				'stores each allowed type under a generated, Store-scoped key, with an audit row [R34]',
				'never opens or deletes another Store’s object, whatever the key says [R33]',
			),
			...proof(
				'tests/e2e/uploads.spec.ts',
				'bad files are refused with a clear 4xx and nothing is stored [R34]',
				'signed-out callers and customers are refused before the body is read [R34]',
				'objects are read through ownership checks: guessed, foreign and traversal keys get 404 [R33]',
			),
			...proof('tests/faults/uploads.test.ts', '507 when full, 503 when read-only, nothing kept, and uploads work again without a restart'),
		],
	},
	{ id: 'activity-log', title: 'Store Admin activity log', rules: ['R5'], maturity: 'experimental', offered: true, proof: [] },
	{
		id: 'store-admin-customers',
		title: 'Store Admin customers (search by name or email, their Orders and what they spent; read-only)',
		rules: ['R5', 'R115'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{
		id: 'store-admin-refunds',
		title: 'Store Admin refunds (through Stripe for card Orders, recorded for offline ones)',
		rules: ['R66', 'R117'],
		maturity: 'experimental',
		offered: true,
		caveat: 'For bank transfer and cash on delivery a refund is a record, not a payment: send the money yourself, then record it.',
		proof: [],
	},
	{
		id: 'store-admin-commerce',
		title: 'Store Admin products, orders and connections',
		rules: ['R5', 'R14'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{
		id: 'provider-events',
		title: 'Provider events (Stripe, Standard Webhooks) and the inbox',
		rules: ['R60', 'R61', 'R63', 'R64', 'R65', 'R66', 'R68'],
		maturity: 'stable',
		offered: true,
		proof: [
			...proof(
				'app/payments/events/receive.server.test.ts',
				'verifies, dedupes and applies; refuses a wrong secret and an old timestamp [R60, R63]',
				'applies the same event delivered 10 times exactly once [R63, R64]',
				'answers 20 concurrent deliveries of one event with 2xx, applying it once (no unique-violation 500s) [R63]',
			),
			...proof(
				'app/payments/events/apply.server.test.ts',
				'holds a 1-cent payment for review: the Order stays unpaid [R66]',
				'holds a payment in another currency for review: JPY on a USD Order, an EUR Session [R66]',
				'never selects an Order by metadata alone: a payment naming a reference the store did not record is held [R66]',
				'never refunds more than was captured [R66]',
				'applies a refund that arrived before the Session linking its PaymentIntent, once, when the link appears [R65]',
				'converges on the largest refund when 20 rounds of two and of three Stripe refunds of one Order arrive at once [R68]',
			),
			...proof('tests/e2e/events.spec.ts', 'a verified Stripe event pays the Order; the inbox shows it; replay changes nothing [R60, R63, R66]'),
		],
	},
	{
		id: 'rate-limits',
		title: 'Rate limits (four route classes, memory or Redis)',
		rules: ['R50', 'R51', 'R53', 'R54', 'R55', 'R56'],
		maturity: 'stable',
		offered: true,
		proof: [
			...proof(
				'app/security/rate-limit/account.server.test.ts',
				'never lets one client’s failures refuse another client’s correct password [R53]',
				'refuses with 503 and Retry-After, never signing in unlimited [R54]',
				'caps 100 addresses guessing one account; the owner’s browser that signed in before still gets in, a new one is told to wait [R55]',
			),
			...proof(
				'app/security/rate-limit/middleware.server.test.ts',
				'counts 24 addresses of one IPv6 /64 as one client, and an address of the next /64 as another [R56]',
			),
			...proof(
				'app/security/rate-limit/redis-faults.server.test.ts',
				'fails closed for Authentication, Sensitive and Admin and open (to memory) for General when Redis dies, logging once; recovers [R54]',
			),
			...proof('tests/e2e/rate-limits.spec.ts', 'a burst on the sign-in form and on /api/auth/sign-in/email reaches the 429 contract [R51]'),
		],
	},
	{
		id: 'modules',
		title: 'Modules: definitions compiled to mod_<id> tables on both engines, reached only through ModuleDataService',
		rules: ['R31'],
		maturity: 'experimental',
		offered: true,
		caveat: 'The compiler adds tables, optional fields and indexes; dropping or retyping a column is a migration you write by hand.',
		proof: [
			...proof(
				'app/modules/compiler.test.ts',
				'finds the committed migrations in step with the definitions (a definition changed without its migration fails here)',
			),
			...proof(
				'app/modules/data-service.server.test.ts',
				'keeps every statement inside its Store: another Store’s rows are not there to read, change or delete [R4]',
			),
		],
	},
	{
		id: 'published-views',
		title: 'Published views: column-projected reads of core and Module data',
		rules: ['R32'],
		maturity: 'experimental',
		offered: true,
		caveat: 'A migration that rebuilds a core table a view reads must drop and recreate the view (docs/modules.md).',
		proof: [...proof('app/modules/data-service.server.test.ts', 'reads only the views its definition names, only their published columns [R32]')],
	},
	{
		id: 'product-reviews',
		title: 'Product reviews by customers who bought the product, shown after Store Admin approves them',
		rules: ['R31', 'R32', 'R50'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{
		id: 'catalog-search',
		title: 'Catalog search, sorting, collections, product galleries, variants and stock labels',
		rules: ['R110', 'R111', 'R112', 'R121', 'R141'],
		maturity: 'experimental',
		offered: true,
		proof: [
			...proof(
				'app/catalog/search.server.test.ts',
				'answers search syntax and injection attempts as plain words, changing nothing [R110]',
				'follows every edit: a new name is found, the old one no longer, a deleted product never [R110]',
			),
			...proof('app/catalog/collections.server.test.ts', "refuses another Store's product or collection and a slug already taken, changing nothing [R111]"),
			...proof('app/catalog/collection-index.server.test.ts', 'the home page reads at most 13 collection rows, however many the Store has [R141]'),
			...proof(
				'app/catalog/product-images.server.test.ts',
				"refuses another Store's upload or product, an image not on the product and more than the limit, changing nothing [R112]",
			),
		],
	},
	{
		id: 'guest-order-claiming',
		title: 'Claiming guest Orders on registration',
		rules: ['R71'],
		maturity: 'experimental',
		offered: true,
		requiresStable: true,
		caveat: 'Built but off until Stable: a Shopper who registers does not take over earlier guest Orders.',
		proof: [],
	},
	{
		id: 'managed-isolation',
		title: 'Managed isolation (the runtime isolating Stores and Modules from each other)',
		rules: ['R4', 'R31', 'R71'],
		maturity: 'experimental',
		offered: true,
		caveat:
			'Module code runs in the store’s own process: ModuleDataService is a boundary in code, not a sandbox, so run only Modules you trust. Do not host several Stores on one runtime or one database and rely on their separation.',
		proof: [],
	},
	// Offered when both SVC_ADMIN_OAUTH_CLIENT_* values are set (app/auth/sso.server.ts).
	{
		id: 'managed-sign-in',
		title: 'Managed single sign-on for Store Admin (when configured)',
		rules: ['R24'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{ id: 'account-sessions', title: 'Your sessions at /account/security', rules: ['R26'], maturity: 'experimental', offered: true, proof: [] },
	{
		id: 'two-factor',
		title: 'Two-factor sign-in (an authenticator app and backup codes; Store Admin may require it of admins)',
		rules: ['R25'],
		maturity: 'experimental',
		offered: true,
		caveat: 'While admins must use it, an admin who loses both the authenticator and the backup codes gets back in only by a database edit.',
		proof: [],
	},
	{
		id: 'diagnostics',
		title: 'The diagnostics command (npm run diagnose): the pre-exposure checklist, live boundary checks and proof scenarios',
		rules: ['R80'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{
		id: 'discount-codes',
		title: 'Discount codes: percentage, fixed amount or free shipping, typed at checkout, kept on the Order',
		rules: ['R132', 'R133', 'R134', 'R135', 'R140'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
	{
		id: 'newsletter-campaigns',
		title: 'Newsletter campaigns: a test to yourself, then one copy to each confirmed subscriber through the outbox',
		rules: ['R136', 'R137'],
		maturity: 'experimental',
		offered: true,
		caveat: 'The sending rate is per process, and a queued campaign cannot be cancelled.',
		proof: [],
	},
	{
		id: 'store-admin-exports',
		title: 'Store Admin exports and printouts: CSV of Orders and products, packing slips, guest buyers',
		rules: ['R128', 'R129'],
		maturity: 'experimental',
		offered: true,
		proof: [],
	},
]

export function capability(id: string) {
	const found = CAPABILITIES.find((c) => c.id === id)
	if (!found) throw new Error(`Unknown capability: ${id}`)
	return found
}

/** Whether a behaviour runs: offered, and Stable when the spec demands it be proven first. */
export function isEnabled(id: string) {
	const found = capability(id)
	return found.offered && (!found.requiresStable || found.maturity === 'stable')
}

/** How the dashboard and the release guidance name a capability's state. */
export function stateOf(found: Capability) {
	if (!found.offered) return 'not offered'
	if (found.requiresStable && found.maturity !== 'stable') return 'off until Stable'
	return found.maturity === 'stable' ? 'Stable' : 'Experimental'
}
