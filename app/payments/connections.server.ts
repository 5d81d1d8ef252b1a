import { connectionScope, openSecret, sealSecret } from '../security/secret-box.server'
import { registerSecret } from '../log/logger.server'
import { isSecretField } from '../log/redact'
import type { StoreScope } from '../data/scope'
import { upsertRacing } from '../data/unique-violation'

export type ProviderKind = 'offline' | 'stripe' | 'generic'

/** Event-verification secrets: the current one, and earlier ones still accepted until they expire. */
export type VerificationSecrets = { webhookSecret?: string; previousWebhookSecrets?: Array<{ secret: string; expiresAt: number }> }

export type StripeSecrets = { secretKey: string; apiBase?: string } & VerificationSecrets

/** The secrets an event may be signed with right now (rotation overlap). */
export function activeVerificationSecrets(secrets: VerificationSecrets | null, now = Date.now()): string[] {
	if (!secrets) return []
	const previous = (secrets.previousWebhookSecrets ?? []).filter((entry) => entry.expiresAt > now).map((entry) => entry.secret)
	return [...(secrets.webhookSecret ? [secrets.webhookSecret] : []), ...previous]
}

/** What pages may see of a Connection: never its secrets. */
export const publicConnectionFields = { id: true, handle: true, provider: true, displayName: true } as const

/** The built-in offline provider: bank transfer or pay on delivery, no configuration. */
export function ensureOfflineConnection({ db, storeId }: StoreScope) {
	// Init on two instances at once, or two first checkouts, may both create it [R126].
	return upsertRacing(() =>
		db.connection.upsert({
			where: { storeId_handle: { storeId, handle: 'offline' } },
			create: { storeId, handle: 'offline', provider: 'offline', displayName: 'Bank transfer or pay on delivery' },
			update: {},
			select: publicConnectionFields,
		}),
	)
}

/**
 * Declared by configuration (STRIPE_SECRET_KEY …): `npm run init` creates or updates it. A new
 * STRIPE_WEBHOOK_SECRET keeps the previous one valid for a day, so deliveries in flight verify.
 */
export async function upsertStripeConnection(scope: StoreScope, next: StripeSecrets) {
	const { db, storeId } = scope
	const existing = await db.connection.findUnique({ where: { storeId_handle: { storeId, handle: 'stripe' } }, select: { id: true } })
	const current = existing ? await connectionSecrets<StripeSecrets>(scope, existing.id) : null
	const secrets: StripeSecrets = { ...next, previousWebhookSecrets: current?.previousWebhookSecrets ?? [] }
	if (current?.webhookSecret && next.webhookSecret && current.webhookSecret !== next.webhookSecret) {
		secrets.previousWebhookSecrets = [...(secrets.previousWebhookSecrets ?? []), { secret: current.webhookSecret, expiresAt: Date.now() + ROTATION_OVERLAP_MS }]
	}
	const secretBox = sealSecret(secrets, connectionScope(storeId, 'stripe'))
	return db.connection.upsert({
		where: { storeId_handle: { storeId, handle: 'stripe' } },
		create: { storeId, handle: 'stripe', provider: 'stripe', displayName: 'Card (Stripe)', secretBox },
		update: { secretBox, active: true },
		select: publicConnectionFields,
	})
}

/** The payment methods checkout offers: active Connections, the offline one first. */
export async function checkoutConnections(scope: StoreScope) {
	const { db, storeId } = scope
	await ensureOfflineConnection(scope)
	const connections = await db.connection.findMany({
		where: { storeId, active: true, provider: { in: ['offline', 'stripe', 'generic'] } },
		select: publicConnectionFields,
		orderBy: { createdAt: 'asc' },
	})
	return connections.sort((a, b) => Number(b.provider === 'offline') - Number(a.provider === 'offline'))
}

/** The secrets of one of this Store's Connections, decrypted on the server only. */
export async function connectionSecrets<T>({ db, storeId }: StoreScope, connectionId: string): Promise<T | null> {
	const row = await db.connection.findFirst({ where: { id: connectionId, storeId }, select: { handle: true, secretBox: true } })
	if (!row?.secretBox) return null
	const secrets = openSecret<T>(row.secretBox, connectionScope(storeId, row.handle))
	// Keys entered at /admin/connections live in the database, not the environment: the logger
	// learns them here, so no line ever carries one either [R13].
	learnSecrets(secrets)
	return secrets
}

/** Every string under a secret-shaped field, at any depth (`webhookSecret`, `previousWebhookSecrets[].secret`). */
function learnSecrets(value: unknown, field = '') {
	if (typeof value === 'string') {
		if (isSecretField(field)) registerSecret(value)
	} else if (Array.isArray(value)) {
		for (const item of value) learnSecrets(item, field)
	} else if (value && typeof value === 'object') {
		for (const [key, inner] of Object.entries(value)) learnSecrets(inner, key)
	}
}

/** How long a replaced verification secret keeps verifying (deliveries retried meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/** A Connection's handle as its endpoint path uses it. */
export const CONNECTION_HANDLE = /^[a-z0-9][a-z0-9-]{0,39}$/
