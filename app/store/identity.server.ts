import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import type { StoreScope } from '../data/scope'
import type { AdminViewer } from '../data/viewer'
import { DomainError } from '../errors.server'
import { checkAccent, isPolicyKind, MAX_POLICY_LENGTH, POLICY_KINDS, type PolicyKind } from './identity'
import { forgetStoreProfile } from './store-profile.server'

export type Logo = { key: string; width: number | null; height: number | null }

/**
 * [R120] What Store Admin changes of the Store's look: the logo, the accent colour and the
 * policy pages. Each change is audited in its own transaction; the profile every page reads is
 * forgotten once it has committed, so the next page shows it.
 */
export function storeIdentityRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const committed = <T>(work: Promise<T>) =>
		work.then((result) => {
			forgetStoreProfile(storeId)
			return result
		})

	return {
		async look() {
			const [store, policies] = await Promise.all([
				db.store.findUniqueOrThrow({ where: { id: storeId }, select: { logoKey: true, logoWidth: true, logoHeight: true, accentColor: true } }),
				db.storePolicy.findMany({ where: { storeId }, select: { kind: true, body: true } }),
			])
			const bodies = new Map(policies.map((policy) => [policy.kind, policy.body]))
			return {
				logo: store.logoKey ? { key: store.logoKey, width: store.logoWidth, height: store.logoHeight } : null,
				accentColor: store.accentColor,
				policies: Object.fromEntries(POLICY_KINDS.map((kind) => [kind, bodies.get(kind) ?? ''])) as Record<PolicyKind, string>,
			}
		},

		/** The logo becomes an upload of this Store: one the caller just stored, found again by key within the Store. */
		setLogo(logo: Logo) {
			return committed(
				db.$transaction(async (tx) => {
					const upload = await tx.uploadedObject.findFirst({ where: { storeId, key: logo.key }, select: { id: true } })
					if (!upload) throw new DomainError(404, 'That image was not found in this store.', 'logo')
					await tx.store.update({ where: { id: storeId }, data: { logoKey: logo.key, logoWidth: logo.width, logoHeight: logo.height } })
					await auditEntry(tx, admin, { action: 'store.logo', targetType: 'store', targetId: storeId, detail: { key: logo.key } })
				}),
			)
		},

		/** The header shows the store's name again; the image stays among the uploads. */
		removeLogo() {
			return committed(
				db.$transaction(async (tx) => {
					await tx.store.update({ where: { id: storeId }, data: { logoKey: null, logoWidth: null, logoHeight: null } })
					await auditEntry(tx, admin, { action: 'store.logo', targetType: 'store', targetId: storeId, detail: { key: null } })
				}),
			)
		},

		/** A colour that passes checkAccent, or null for the stylesheet's own. */
		async setAccent(value: string | null) {
			let colour: string | null = null
			if (value !== null) {
				const checked = checkAccent(value)
				if (!checked.ok) throw new DomainError(400, checked.message, 'accentColor')
				colour = checked.colour
			}
			return committed(
				db.$transaction(async (tx) => {
					await tx.store.update({ where: { id: storeId }, data: { accentColor: colour } })
					await auditEntry(tx, admin, { action: 'store.accent', targetType: 'store', targetId: storeId, detail: { accentColor: colour } })
				}),
			)
		},

		/** Every kind at once: text is kept as written (trimmed); empty text takes the page down. */
		async savePolicies(bodies: Record<PolicyKind, string>) {
			for (const kind of POLICY_KINDS) {
				if (bodies[kind].length > MAX_POLICY_LENGTH) throw new DomainError(400, `Use at most ${MAX_POLICY_LENGTH.toLocaleString('en')} characters.`, kind)
			}
			return committed(
				db.$transaction(async (tx) => {
					const published: string[] = []
					for (const kind of POLICY_KINDS) {
						const body = bodies[kind].trim()
						if (body === '') {
							await tx.storePolicy.deleteMany({ where: { storeId, kind } })
							continue
						}
						published.push(kind)
						await tx.storePolicy.upsert({ where: { storeId_kind: { storeId, kind } }, create: { storeId, kind, body }, update: { body }, select: { id: true } })
					}
					await auditEntry(tx, admin, { action: 'store.policies', targetType: 'store', targetId: storeId, detail: { published } })
				}),
			)
		},
	}
}

/** A published policy of the scope's Store, for its public page; null when there is none. */
export async function storePolicy({ db, storeId }: StoreScope, kind: string) {
	if (!isPolicyKind(kind)) return null
	const policy = await db.storePolicy.findUnique({ where: { storeId_kind: { storeId, kind } }, select: { kind: true, body: true, updatedAt: true } })
	return policy && policy.body.trim() !== '' ? { kind, body: policy.body, updatedAt: policy.updatedAt } : null
}
