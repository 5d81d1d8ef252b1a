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
import { placeOrder } from './orders/checkout.server'
import { claimGuestOrders } from './orders/claim.server'
import { customerOrdersRepository, ordersRepository } from './orders/orders.server'
import { checkoutConnections } from './payments/connections.server'
import { shippingTable } from './shipping/shipping.server'
import { adminShippingRepository } from './shipping/admin-shipping.server'
import { receiveEvent } from './payments/events/receive.server'
import { refundPayment, startOrderPayment } from './payments/payments.server'
import { registerSignInHooks } from './auth/sign-in-hooks.server'
import { runtimeScope, viewerScope } from './data/scope'
import { getStorage } from './uploads/storage/index.server'
import type { ObjectStorage } from './uploads/storage/storage'
import { uploadsRepository } from './uploads/uploads.server'
import { accountRepository } from './data/account.server'
import { type Db, getDb, transaction } from './data/db.server'
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
import { enqueueMail } from './email/outbox.server'
import { resetMailRenderer } from './email/reset-mail.server'
import { smtpTransport } from './email/transport.server'
import { orderMailRenderer } from './orders/mail.server'
import { confirmMailRenderer } from './newsletter/newsletter.server'
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
		resetRequested: ({ storeId, email, token }) =>
			getDb()
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
		'password-reset': resetMailRenderer(db),
	}
}

/** The server's outbox worker, when sending is configured (scripts/server.ts starts and stops it). */
export async function startMailWorker(config: Config, db: Db = getDb()) {
	if (!config.email) return null
	const transport = await smtpTransport(config.email)
	return mailWorker({ db, transport, from: config.email.from, messageIdHost: new URL(config.appUrl).hostname, renderers: mailRenderers(db) }).start()
}

/**
 * The only way routes reach data: every repository is built from the viewer,
 * so Store scope and owner come from the session in one place [R4] [R30].
 */
export function repositoriesFor(viewer: Viewer, db: Db = getDb(), storage?: ObjectStorage) {
	return {
		store: storeRepository(db, viewer),
		/** The Store's published policy pages [R120]. */
		policies: { get: (kind: string) => storePolicy(viewerScope(db, viewer), kind) },
		catalog: catalogRepository(db, viewer),
		cart: cartRepository(db, viewer),
		orders: ordersRepository(db, viewer),
		checkout: checkoutFor(viewer, db),
		newsletter: newsletterRepository(viewerScope(db, viewer)),
		// A Module's repository: its data service keeps the Store, the repository the owner [R31].
		reviews: reviewsRepository(
			moduleData(viewerScope(db, viewer), reviewsModule),
			viewer.kind === 'user' ? { userId: viewer.userId, name: viewer.name } : null,
		),
		// Built on use: most requests never touch uploads or their storage client.
		get uploads() {
			return uploadsRepository(db, viewer, storage ?? getStorage())
		},
	}
}

export function userRepositoriesFor(viewer: UserViewer, db: Db = getDb()) {
	return {
		...repositoriesFor(viewer, db),
		account: accountRepository(db, viewer),
		myOrders: customerOrdersRepository(db, viewer),
		sessions: sessionsRepository(db, viewer),
	}
}

export function adminRepositoriesFor(viewer: AdminViewer, db: Db = getDb(), storage?: ObjectStorage) {
	return {
		...userRepositoriesFor(viewer, db),
		uploads: repositoriesFor(viewer, db, storage).uploads,
		audit: auditRepository(db, viewer),
		identity: storeIdentityRepository(db, viewer),
		products: adminProductsRepository(db, viewer),
		collections: adminCollectionsRepository(db, viewer),
		shipping: adminShippingRepository(db, viewer),
		productImages: productImagesRepository(db, viewer),
		adminOrders: adminOrdersRepository(db, viewer, (connection, request) => refundPayment(viewerScope(db, viewer), connection, request)),
		dashboard: dashboardRepository(db, viewer),
		customers: adminCustomersRepository(db, viewer),
		connections: adminConnectionsRepository(db, viewer),
		events: eventInboxRepository(db, viewer),
		checklist: () => adminChecklist(db, viewer.storeId),
		outbox: adminOutboxRepository(db, viewer),
		subscribers: adminSubscribersRepository(db, viewer),
		reviewModeration: adminReviewsRepository(moduleData(viewerScope(db, viewer), reviewsModule), (work) =>
			transaction(db, (tx) => work(moduleData(viewerScope(tx, viewer), reviewsModule), (entry) => auditEntry(tx, viewer, entry))),
		),
	}
}
