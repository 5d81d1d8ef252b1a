import { auditRepository } from '../audit/audit.server'
import { cartRepository } from '../cart/cart.server'
import { adminProductsRepository } from '../catalog/admin-products.server'
import { adminOrdersRepository } from '../orders/admin-orders.server'
import { adminConnectionsRepository } from '../payments/admin-connections.server'
import { eventInboxRepository } from '../payments/events/inbox.server'
import { catalogRepository } from '../catalog/catalog.server'
import { newsletterRepository } from '../newsletter/newsletter.server'
import { customerOrdersRepository, ordersRepository } from '../orders/orders.server'
import { getStorage } from '../uploads/storage/index.server'
import type { ObjectStorage } from '../uploads/storage/storage'
import { uploadsRepository } from '../uploads/uploads.server'
import { accountRepository } from './account.server'
import { type Db, getDb } from './db.server'
import { sessionsRepository } from './sessions.server'
import { storeRepository } from './store.server'
import { type AdminViewer, type UserViewer, type Viewer } from './viewer'

/**
 * The only way routes reach data: every repository is built from the viewer,
 * so Store scope and owner come from the session in one place (STYLE.md).
 */
export function repositoriesFor(viewer: Viewer, db: Db = getDb(), storage?: ObjectStorage) {
	return {
		store: storeRepository(db, viewer),
		catalog: catalogRepository(db, viewer),
		cart: cartRepository(db, viewer),
		orders: ordersRepository(db, viewer),
		newsletter: newsletterRepository(db, viewer.storeId),
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
		products: adminProductsRepository(db, viewer),
		adminOrders: adminOrdersRepository(db, viewer),
		connections: adminConnectionsRepository(db, viewer),
		events: eventInboxRepository(db, viewer),
	}
}
