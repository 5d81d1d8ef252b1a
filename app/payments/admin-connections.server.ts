import { auditedChange, auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { type StripeSecrets, type VerificationSecrets, connectionSecrets, ROTATION_OVERLAP_MS } from './connections.server'
import { forgetEndpoints } from './events/receive.server'
import { type PaymentInstructions, paymentInstructionsSchema, readInstructions } from '../rules/payment-instructions'
import { connectionScope, sealSecret } from '../security/secret-box.server'
import { viewerScope } from '../data/scope'

/**
 * Connections as Store Admin manages them. Secrets are write-only: they are sealed
 * on save and never selected for a page again; the page shows only whether one is set.
 */
export function adminConnectionsRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	return {
		async list() {
			const rows = await db.connection.findMany({
				where: { storeId },
				orderBy: { createdAt: 'asc' },
				select: { id: true, handle: true, provider: true, displayName: true, active: true, rejectedEvents: true, secretBox: true, paymentInstructions: true },
			})
			return rows.map(({ secretBox, paymentInstructions, ...row }) => ({
				...row,
				hasSecrets: secretBox !== null,
				instructions: row.provider === 'stripe' ? null : readInstructions(paymentInstructions),
			}))
		},

		/** [R113] What buyers paying through this (offline or generic) Connection are told; Stripe pays online. */
		async setInstructions(handle: string, input: PaymentInstructions) {
			const instructions = paymentInstructionsSchema.parse(input)
			const row = await db.connection.findFirst({ where: { storeId, handle }, select: { id: true, provider: true } })
			if (!row) throw notFound('That connection')
			if (row.provider === 'stripe') throw new DomainError(400, 'Stripe Orders are paid online: there are no instructions to show.')
			await db.$transaction(async (tx) => {
				await tx.connection.update({ where: { id: row.id }, data: { paymentInstructions: JSON.stringify(instructions) } })
				await auditEntry(tx, admin, { action: 'connection.payment_instructions', targetType: 'connection', targetId: row.id, detail: { handle } })
			})
		},

		async create(input: { provider: 'stripe' | 'generic'; handle: string; displayName: string; secretKey?: string; webhookSecret: string }) {
			if (input.provider === 'stripe' && !input.secretKey) throw new DomainError(400, 'Enter the Stripe secret key.', 'secretKey')
			const secrets: StripeSecrets | VerificationSecrets =
				input.provider === 'stripe' ? { secretKey: input.secretKey ?? '', webhookSecret: input.webhookSecret } : { webhookSecret: input.webhookSecret }
			return auditedChange(db, admin, {
				write: (tx) =>
					tx.connection.create({
						data: {
							storeId,
							handle: input.handle,
							provider: input.provider,
							displayName: input.displayName,
							secretBox: sealSecret(secrets, connectionScope(storeId, input.handle)),
						},
						select: { id: true },
					}),
				entry: (row) => ({
					action: 'connection.create',
					targetType: 'connection',
					targetId: row.id,
					detail: { handle: input.handle, provider: input.provider },
				}),
				forget: () => forgetEndpoints(db),
				duplicate: () => new DomainError(409, 'Another connection already uses this handle.', 'handle'),
			})
		},

		/** A new verification secret; the old one keeps verifying for a day (deliveries in flight). */
		async rotate(handle: string, webhookSecret: string) {
			const row = await db.connection.findFirst({ where: { storeId, handle }, select: { id: true, provider: true } })
			if (!row || row.provider === 'offline') throw notFound('That connection')
			const current = (await connectionSecrets<StripeSecrets>(viewerScope(db, admin), row.id)) ?? ({} as StripeSecrets)
			const now = Date.now()
			const previous = (current.previousWebhookSecrets ?? []).filter((entry) => entry.expiresAt > now)
			if (current.webhookSecret) previous.push({ secret: current.webhookSecret, expiresAt: now + ROTATION_OVERLAP_MS })
			const next = { ...current, webhookSecret, previousWebhookSecrets: previous }
			await db.$transaction(async (tx) => {
				await tx.connection.update({ where: { id: row.id }, data: { secretBox: sealSecret(next, connectionScope(storeId, handle)) } })
				await auditEntry(tx, admin, { action: 'connection.rotate_secret', targetType: 'connection', targetId: row.id, detail: { handle } })
			})
			forgetEndpoints(db)
		},
	}
}
