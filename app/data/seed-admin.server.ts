import type { Auth } from '../auth/auth.server'
import { passwordWeakness } from '../security/strength.server'
import type { Db } from './db.server'

/**
 * Spec 5.7: the published default Store Admin account. It must be replaced
 * before the Store is reachable from the internet (README, "Before exposure").
 */
export const DEFAULT_ADMIN_EMAIL = 'admin@example.com'
export const DEFAULT_ADMIN_PASSWORD = 'change-me-admin-password'

export type SeedOutcome =
	| { kind: 'created'; email: string; usedDefaults: boolean }
	| { kind: 'exists'; email: string; usedDefaults: boolean }
	| { kind: 'not-admin'; email: string; usedDefaults: boolean }
	| { kind: 'weak-password'; email: string; usedDefaults: false; reason: string }

/**
 * Creates the seeded Store Admin when no account has its email. Idempotent:
 * an existing admin keeps its password (init never resets what it did not just
 * create), and an existing non-admin is never promoted, since anyone could have
 * registered that email before init ran.
 */
export async function seedAdmin({
	db,
	auth,
	email,
	password,
}: {
	db: Db
	auth: Auth
	email?: string
	password?: string
}): Promise<SeedOutcome> {
	const usedDefaults = !email || !password
	const adminEmail = (email ?? DEFAULT_ADMIN_EMAIL).toLowerCase()
	const existing = await db.user.findUnique({
		where: { email: adminEmail },
		select: { role: true },
	})
	if (existing) {
		const kind = existing.role.split(',').includes('admin') ? 'exists' : 'not-admin'
		return { kind, email: adminEmail, usedDefaults }
	}
	// The published default is flagged loudly instead; a chosen password meets the sign-up rules.
	if (password !== undefined && password !== DEFAULT_ADMIN_PASSWORD) {
		const reason = passwordWeakness(password, [adminEmail, 'Administrator'])
		if (reason) return { kind: 'weak-password', email: adminEmail, usedDefaults: false, reason }
	}
	await auth.api.createUser({
		body: {
			email: adminEmail,
			password: password ?? DEFAULT_ADMIN_PASSWORD,
			name: 'Administrator',
			role: 'admin',
		},
	})
	return { kind: 'created', email: adminEmail, usedDefaults }
}
