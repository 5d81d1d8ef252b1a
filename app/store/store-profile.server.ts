import type { StoreScope } from '../data/scope'
import { sharedCache } from '../data/shared-cache.server'

export type StoreProfile = {
	name: string
	currency: string
	locale: string
	/** The header's logo, with its size so the header does not shift [R120]. */
	logo: { key: string; width: number | null; height: number | null } | null
	/** null: the stylesheet's own colour. */
	accentColor: string | null
	/** The policy pages that have text, for the footer's links. */
	policyKinds: string[]
}

/**
 * the Store's profile (name, currency, locale, look) is on every page and changes only
 * when an admin saves it: kept in memory (shared-cache.server.ts), forgotten on every edit.
 */
const profiles = sharedCache<StoreProfile>({ topic: 'store-profile', ttlMs: 30_000, max: 16 })

async function readProfile({ db, storeId }: StoreScope): Promise<StoreProfile> {
	const store = await db.store.findUniqueOrThrow({
		where: { id: storeId },
		select: {
			name: true,
			currency: true,
			locale: true,
			logoKey: true,
			logoWidth: true,
			logoHeight: true,
			accentColor: true,
			policies: { select: { kind: true }, orderBy: { kind: 'asc' } },
		},
	})
	return {
		name: store.name,
		currency: store.currency,
		locale: store.locale,
		logo: store.logoKey ? { key: store.logoKey, width: store.logoWidth, height: store.logoHeight } : null,
		accentColor: store.accentColor,
		policyKinds: store.policies.map((policy) => policy.kind),
	}
}

export function cachedStoreProfile(scope: StoreScope): Promise<StoreProfile> {
	return profiles.get(scope.storeId, () => readProfile(scope))
}

/** After an edit has committed: this process and every other one sharing Redis re-read. */
export function forgetStoreProfile(storeId: string) {
	profiles.forget(storeId)
}
