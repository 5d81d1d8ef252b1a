import type { Db } from './db.server'
import { runtimeStoreId } from './runtime-store.server'
import type { Viewer } from './viewer'

declare const scoped: unique symbol

/**
 * One Store's data, as domain code may touch it. Domain functions take a scope instead of a loose
 * `storeId`, and a scope is made only from a session's viewer or from the runtime's own Store,
 * never from anything a request names: "identity and Store come from the session" holds by
 * construction [R4] [R30]. (The lint config keeps `unverifiedScope` to scripts and tests.)
 */
export type StoreScope = { readonly db: Db; readonly storeId: string; readonly [scoped]: true }

const scope = (db: Db, storeId: string) => ({ db, storeId }) as StoreScope

/** The viewer's Store: what every request with a session works in. */
export const viewerScope = (db: Db, viewer: Pick<Viewer, 'storeId'>): StoreScope => scope(db, viewer.storeId)

/** The runtime's own Store: for work no session carries (a provider's event, start-up, init). */
export const runtimeScope = async (db: Db): Promise<StoreScope> => scope(db, await runtimeStoreId(db))

/** The same Store over another client of the same database: a transaction's, so writes commit together. */
export const sameStore = (scope: StoreScope, db: Db): StoreScope => ({ ...scope, db }) as StoreScope

/** A scope for a Store id the caller vouches for: tests and command-line tools only. */
export const unverifiedScope = (db: Db, storeId: string): StoreScope => scope(db, storeId)
