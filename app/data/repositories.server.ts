import { accountRepository } from './account.server'
import { type Db, getDb } from './db.server'
import { storeRepository } from './store.server'
import type { UserViewer, Viewer } from './viewer'

/**
 * The only way routes reach data: every repository is built from the viewer,
 * so Store scope and owner come from the session in one place (STYLE.md).
 */
export function repositoriesFor(viewer: Viewer, db: Db = getDb()) {
	return { store: storeRepository(db, viewer) }
}

export function userRepositoriesFor(viewer: UserViewer, db: Db = getDb()) {
	return { ...repositoriesFor(viewer, db), account: accountRepository(db, viewer) }
}
