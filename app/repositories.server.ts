import { auditRepository } from './audit/audit.server'
import { cartRepository, mergeGuestCart } from './cart/cart.server'
import { adminProductsRepository } from './catalog/admin-products.server'
import { adminCollectionsRepository } from './catalog/admin-collections.server'
import { productImagesRepository } from './catalog/product-images.server'
import { adminOrdersRepository } from './orders/admin-orders.server'
import { dashboardRepository } from './orders/dashboard.server'
import { adminCustomersRepository } from './customers/admin-customers.server'
import { adminConnectionsRepository } from './payments/admin-connections.server'
import { eventInboxRepository } from './payments/events/inbox.server'
import { catalogRepository } from './catalog/catalog.server'
import { newsletterRepository } from './newsletter/newsletter.server'
import { placeOrder, previewDiscount } from './orders/checkout.server'
import { claimGuestOrders } from './orders/claim.server'
import { customerOrdersRepository, ordersRepository } from './orders/orders.server'
import { checkoutConnections } from './payments/connections.server'
import { shippingTable } from './shipping/shipping.server'
import { adminShippingRepository } from './shipping/admin-shipping.server'
import { adminDiscountsRepository } from './discounts/admin-discounts.server'
import { receiveEvent } from './payments/events/receive.server'
import { eventWorker } from './payments/events/worker.server'
import { refundPayment, startOrderPayment } from './payments/payments.server'
import { registerSignInHooks } from './auth/sign-in-hooks.server'
import { runtimeScope, viewerScope } from './data/scope'
import { getStorage } from './uploads/storage/index.server'
import type { ObjectStorage } from './uploads/storage/storage'
import { uploadsRepository } from './uploads/uploads.server'
import { accountRepository } from './data/account.server'
import { type Db, getDb, transaction } from './data/db.server'
import { startCheckpoints } from './data/checkpoints.server'
import { sqliteFile } from './data/driver-adapter.server'
import { databaseProvider } from './config/database-url'
import { auditEntry } from './audit/audit.server'
import { moduleData } from './modules/data-service.server'
import { reviewsModule } from './modules/reviews/definition'
import { adminReviewsRepository, reviewsRepository } from './modules/reviews/reviews.server'
import { sessionsRepository } from './data/sessions.server'
import { storeRepository } from './store/store.server'
import { storeIdentityRepository, storePolicy } from './store/identity.server'
import { adminChecklist } from './diagnostics/checklist.server'
import { mailWorker, type Renderer } from './email/worker.server'
import { adminOutboxRepository } from './email/admin-outbox.server'
import { adminSubscribersRepository } from './newsletter/admin-subscribers.server'
import { ordersCsv } from './exports/orders-csv.server'
import { productsCsv } from './exports/products-csv.server'
import { enqueueMail } from './email/outbox.server'
import { resetMailRenderer } from './email/reset-mail.server'
import { smtpTransport } from './email/transport.server'
import { orderMailRenderer } from './orders/mail.server'
import { confirmMailRenderer, leaveMailRenderer } from './newsletter/newsletter.server'
import { adminCampaignsRepository, campaignMailRenderer } from './newsletter/campaigns.server'
import type { Config } from './config/env.server'
import { type AdminViewer, type UserViewer, type Viewer } from './data/viewer'

/**
 * What commerce does at sign-up and sign-in, given to auth (which sits below the commerce
 * concerns and so does not import them): merge the guest's cart into the account's, and claim
 * guest Orders when that capability is on [R71]. Registered when this module loads, which every
 * process that serves or tests sign-in does; calling it again changes nothing.
 */
export function installSignInHooks() {
	registerSignInHooks({
		afterSignUp: async ({ scope, userId, guestId }) => {
			await claimGuestOrders(scope, { userId, guestId })
		},
		afterSessionCreated: ({ scope, userId, guestId }) => mergeGuestCart(scope, { guestId, userId }),
		// The token is the mail's subject: better-auth keeps it in its own table already, for 30 minutes.
		resetRequested: ({ db, storeId, email, token }) =>
			db
				.$transaction((tx) => enqueueMail(tx, { storeId, kind: 'password-reset', subjectId: token, toAddress: email, dedupeKey: `password-reset:${token}` }))
				.then(() => undefined),
	})
}
installSignInHooks()

/** Checkout for the viewer: the payment choices, placing the Order, starting its payment. */
function checkoutFor(viewer: Viewer, db: Db) {
	const scope = viewerScope(db, viewer)
	return {
		connections: () => checkoutConnections(scope),
		shipping: () => shippingTable(scope),
		placeOrder: (input: Omit<Parameters<typeof placeOrder>[0], 'db' | 'viewer'>) => placeOrder({ db, viewer, ...input }),
		previewDiscount: (input: { typed: string; email: string }) => previewDiscount({ db, viewer, ...input }),
		startPayment: (input: Parameters<typeof startOrderPayment>[1]) => startOrderPayment(scope, input),
	}
}

/**
 * The one entry point for requests that carry no session (a provider's event delivery): the
 * Store is the runtime's own, never one a request names [R62].
 */
export function runtimeRepositories(db: Db = getDb()) {
	return {
		events: {
			receive: async (handle: string, request: Request) => receiveEvent(await runtimeScope(db), { handle, request }),
		},
	}
}

/** How each kind of mail in the outbox is rendered when it is sent. */
export function mailRenderers(db: Db): Record<string, Renderer> {
	return {
		'order-placed': orderMailRenderer(db, 'order-placed'),
		'order-paid': orderMailRenderer(db, 'order-paid'),
		'order-fulfilled': orderMailRenderer(db, 'order-fulfilled'),
		'order-cancelled': orderMailRenderer(db, 'order-cancelled'),
		'order-refunded': orderMailRenderer(db, 'order-refunded'),
		'newsletter-confirm': confirmMailRenderer(db),
		'newsletter-leave': leaveMailRenderer(db),
		'newsletter-campaign': campaignMailRenderer(db),
		'newsletter-campaign-test': campaignMailRenderer(db, { test: true }),
		'password-reset': resetMailRenderer(db),
	}
}

/**
 * On SQLite, the thread that copies the write-ahead log back into the database file, so the
 * connection serving requests does not (app/data/checkpoints.server.ts). Null on PostgreSQL.
 */
export function startDatabaseCheckpoints(config: Config, onFailure: (message: string) => void, db: Db = getDb()) {
	if (databaseProvider(config.databaseUrl) !== 'sqlite') return Promise.resolve(null)
	return startCheckpoints(db, sqliteFile(config.databaseUrl), { onFailure })
}

/** The server's outbox worker, when sending is configured (server/server.ts starts and stops it). */
export async function startMailWorker(config: Config, db: Db = getDb()) {
	if (!config.email) return null
	const transport = await smtpTransport(config.email)
	return mailWorker({
		db,
		transport,
		from: config.email.from,
		messageIdHost: new URL(config.appUrl).hostname,
		renderers: mailRenderers(db),
		maxPerMinute: config.email.maxPerMinute,
	}).start()
}

/** The server's event worker: applies the provider events the intake kept (server/server.ts starts and stops it). */
export function startEventWorker(log: { warn: (line: string) => void; error: (line: string) => void }, db: Db = getDb()) {
	return eventWorker({ db, scope: () => runtimeScope(db), log }).start()
}

/**
 * Makes each getter of a repositories class build its repository once: the first read calls
 * the getter and keeps what it built as the object's own property, under the getter's own
 * name, so the next read is a plain field.
 */
function buildOnFirstUse(prototype: object) {
	for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(prototype))) {
		const build = descriptor.get
		if (!build) continue
		Object.defineProperty(prototype, name, {
			...descriptor,
			get() {
				const value: unknown = build.call(this)
				Object.defineProperty(this, name, { value, enumerable: true })
				return value
			},
		})
	}
}

/**
 * A viewer's repositories, each built from the viewer the first time a request uses it: a
 * page reads one or two of them, and building all of them on every call (twice or three times
 * a page) was a few percent of a guest page's allocations.
 */
class Repositories<V extends Viewer = Viewer> {
	constructor(
		protected readonly viewer: V,
		protected readonly db: Db,
		private readonly storage?: ObjectStorage,
	) {}
	get store() {
		return storeRepository(this.db, this.viewer)
	}
	/** The Store's published policy pages [R120]. */
	get policies() {
		const scope = viewerScope(this.db, this.viewer)
		return { get: (kind: string) => storePolicy(scope, kind) }
	}
	get catalog() {
		return catalogRepository(this.db, this.viewer)
	}
	get cart() {
		return cartRepository(this.db, this.viewer)
	}
	get orders() {
		return ordersRepository(this.db, this.viewer)
	}
	get checkout() {
		return checkoutFor(this.viewer, this.db)
	}
	get newsletter() {
		return newsletterRepository(viewerScope(this.db, this.viewer))
	}
	/** A Module's repository: its data service keeps the Store, the repository the owner [R31]. */
	get reviews() {
		const viewer: Viewer = this.viewer
		const reviewer = viewer.kind === 'user' ? { userId: viewer.userId, name: viewer.name } : null
		return reviewsRepository(moduleData(viewerScope(this.db, viewer), reviewsModule), reviewer)
	}
	/** Most requests never touch uploads or their storage client. */
	get uploads() {
		return uploadsRepository(this.db, this.viewer, this.storage ?? getStorage())
	}
}

class UserRepositories<V extends UserViewer = UserViewer> extends Repositories<V> {
	get account() {
		return accountRepository(this.db, this.viewer)
	}
	get myOrders() {
		return customerOrdersRepository(this.db, this.viewer)
	}
	get sessions() {
		return sessionsRepository(this.db, this.viewer)
	}
}

class AdminRepositories extends UserRepositories<AdminViewer> {
	get audit() {
		return auditRepository(this.db, this.viewer)
	}
	get identity() {
		return storeIdentityRepository(this.db, this.viewer)
	}
	get products() {
		return adminProductsRepository(this.db, this.viewer)
	}
	get collections() {
		return adminCollectionsRepository(this.db, this.viewer)
	}
	get shipping() {
		return adminShippingRepository(this.db, this.viewer)
	}
	get discounts() {
		return adminDiscountsRepository(this.db, this.viewer)
	}
	get productImages() {
		return productImagesRepository(this.db, this.viewer)
	}
	get adminOrders() {
		const { db, viewer } = this
		return adminOrdersRepository(db, viewer, (connection, request) => refundPayment(viewerScope(db, viewer), connection, request))
	}
	get dashboard() {
		return dashboardRepository(this.db, this.viewer)
	}
	get customers() {
		return adminCustomersRepository(this.db, this.viewer)
	}
	get connections() {
		return adminConnectionsRepository(this.db, this.viewer)
	}
	get events() {
		return eventInboxRepository(this.db, this.viewer)
	}
	get checklist() {
		const { db, viewer } = this
		return () => adminChecklist(db, viewer.storeId)
	}
	get outbox() {
		return adminOutboxRepository(this.db, this.viewer)
	}
	get subscribers() {
		return adminSubscribersRepository(this.db, this.viewer)
	}
	get campaigns() {
		return adminCampaignsRepository(this.db, this.viewer)
	}
	/** CSV exports, each a generator the route streams batch by batch [R128]. */
	get exports() {
		const { db, viewer } = this
		return { orders: (range: { from?: Date; to?: Date }) => ordersCsv(db, viewer, range), products: () => productsCsv(db, viewer) }
	}
	get reviewModeration() {
		const { db, viewer } = this
		return adminReviewsRepository(moduleData(viewerScope(db, viewer), reviewsModule), (work) =>
			transaction(db, (tx) => work(moduleData(viewerScope(tx, viewer), reviewsModule), (entry) => auditEntry(tx, viewer, entry))),
		)
	}
}

for (const repositories of [Repositories, UserRepositories, AdminRepositories]) buildOnFirstUse(repositories.prototype)

/**
 * The only way routes reach data: every repository is built from the viewer,
 * so Store scope and owner come from the session in one place [R4] [R30].
 */
export function repositoriesFor(viewer: Viewer, db: Db = getDb(), storage?: ObjectStorage) {
	return new Repositories(viewer, db, storage)
}

export function userRepositoriesFor(viewer: UserViewer, db: Db = getDb()) {
	return new UserRepositories(viewer, db)
}

export function adminRepositoriesFor(viewer: AdminViewer, db: Db = getDb(), storage?: ObjectStorage) {
	return new AdminRepositories(viewer, db, storage)
}
