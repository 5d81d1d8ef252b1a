import type { StoreScope } from '../data/scope'
import { sharedCache } from '../data/shared-cache.server'

export type StoreProfile = { name: string; currency: string; locale: string }

/**
 * the Store's profile (name, currency, locale) is on every page and changes only
 * when an admin saves it: kept in memory (shared-cache.server.ts), forgotten on every edit.
 */
const profiles = sharedCache<StoreProfile>({ topic: 'store-profile', ttlMs: 30_000, max: 16 })

export function cachedStoreProfile({ db, storeId }: StoreScope): Promise<StoreProfile> {
	return profiles.get(storeId, () => db.store.findUniqueOrThrow({ where: { id: storeId }, select: { name: true, currency: true, locale: true } }))
}

/** After an edit has committed: this process and every other one sharing Redis re-read. */
export function forgetStoreProfile(storeId: string) {
	profiles.forget(storeId)
}
