import type { Db } from '../data/db.server'
import { connectionScope, openSecret, sealSecret } from './secret-box.server'

export type ProviderKind = 'offline' | 'stripe'

export type StripeSecrets = { secretKey: string; apiBase?: string; webhookSecret?: string }

/** What pages may see of a Connection: never its secrets. */
export const publicConnectionFields = { id: true, handle: true, provider: true, displayName: true } as const

/** The built-in offline provider: bank transfer or pay on delivery, no configuration. */
export function ensureOfflineConnection(db: Db, storeId: string) {
	return db.connection.upsert({
		where: { storeId_handle: { storeId, handle: 'offline' } },
		create: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank transfer or pay on delivery' },
		update: {},
		select: publicConnectionFields,
	})
}

/** Declared by configuration (STRIPE_SECRET_KEY …): `npm run init` creates or updates it. */
export function upsertStripeConnection(db: Db, storeId: string, secrets: StripeSecrets) {
	const secretBox = sealSecret(secrets, connectionScope(storeId, 'stripe'))
	return db.connection.upsert({
		where: { storeId_handle: { storeId, handle: 'stripe' } },
		create: { storeId, handle: 'stripe', provider: 'stripe', displayName: 'Card (Stripe)', secretBox },
		update: { secretBox, active: true },
		select: publicConnectionFields,
	})
}

/** The payment methods checkout offers: active Connections, the offline one first. */
export async function checkoutConnections(db: Db, storeId: string) {
	await ensureOfflineConnection(db, storeId)
	const connections = await db.connection.findMany({
		where: { storeId, active: true, provider: { in: ['offline', 'stripe'] } },
		select: publicConnectionFields,
		orderBy: { createdAt: 'asc' },
	})
	return connections.sort((a, b) => Number(b.provider === 'offline') - Number(a.provider === 'offline'))
}

/** The secrets of one of this Store's Connections, decrypted on the server only. */
export async function connectionSecrets<T>(db: Db, storeId: string, connectionId: string): Promise<T | null> {
	const row = await db.connection.findFirst({ where: { id: connectionId, storeId }, select: { handle: true, secretBox: true } })
	if (!row?.secretBox) return null
	return openSecret<T>(row.secretBox, connectionScope(storeId, row.handle))
}
