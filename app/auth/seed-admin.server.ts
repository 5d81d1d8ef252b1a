import { randomBytes } from 'node:crypto'
import type { Auth } from './auth.server'
import { resetTokensOf } from './reset-links.server'
import { roleOf } from './roles'
import { passwordWeakness } from '../rules/strength.server'
import type { Db } from '../data/db.server'
import { isUniqueViolation } from '../data/unique-violation'

/**
 * The published default Store Admin account (README, "Know before you use it"). It exists so a
 * first run has an admin; it must be replaced before the Store is reachable from the internet.
 * docs/decisions/033-published-admin.md says what init does about it [R23].
 */
export const DEFAULT_ADMIN_EMAIL = 'admin@example.com'
export const DEFAULT_ADMIN_PASSWORD = 'change-me-admin-password'

type Seeded = {
	email: string
	/** The admin signs in with the published password (init warns loudly). */
	publishedPassword: boolean
	/** Other admin accounts that signed in with the published password: no longer admins, that password unusable, signed out. */
	retired: string[]
}

export type SeedOutcome =
	| ({ kind: 'created' | 'exists' | 'not-admin' } & Seeded)
	/** The existing admin still had the published password: it now has ADMIN_PASSWORD and is signed out. */
	| ({ kind: 'password-replaced' } & Seeded)
	| { kind: 'weak-password'; email: string; reason: string }
	/** Production: the operator named an admin whose password would be the published one. */
	| { kind: 'published-password-refused'; email: string }

/**
 * Ensures the Store Admin account of ADMIN_EMAIL / ADMIN_PASSWORD (or the published defaults
 * when neither is set). Idempotent: a password the operator chose is never changed, and an
 * existing non-admin is never promoted, since anyone could have registered that email first.
 *
 * Once the operator has chosen a password (ADMIN_PASSWORD, other than the published one), no
 * account signs in with the published password [R23, R29]: the named account gets the chosen
 * password instead, any other loses the role and gets a random password, and both are signed out.
 * In production the published password is refused whatever the email, unless nothing at all
 * was set (the first start of a container, which creates the published default).
 */
export async function seedAdmin({
	db,
	auth,
	email,
	password,
	production = false,
}: {
	db: Db
	auth: Auth
	email?: string
	password?: string
	production?: boolean
}): Promise<SeedOutcome> {
	const adminEmail = (email ?? DEFAULT_ADMIN_EMAIL).toLowerCase()
	const chosen = password !== undefined && password !== DEFAULT_ADMIN_PASSWORD ? password : undefined
	if (refusesPublishedPassword({ email, password, production })) return { kind: 'published-password-refused', email: adminEmail }
	const weakness = () => (chosen ? passwordWeakness(chosen, [adminEmail, 'Administrator']) : null)
	const published = await publishedPasswordCheck(auth)
	const existing = await db.user.findUnique({ where: { email: adminEmail }, select: adminSelect })
	let seeded: Extract<SeedOutcome, Seeded>
	if (!existing) {
		const reason = weakness()
		if (reason) return { kind: 'weak-password', email: adminEmail, reason }
		try {
			await auth.api.createUser({
				body: { email: adminEmail, password: chosen ?? DEFAULT_ADMIN_PASSWORD, name: 'Administrator', role: 'admin' },
			})
		} catch (error) {
			// Another instance's init, started at the same moment, created it first [R126] (its
			// insert won the unique key, or better-auth saw it and answered "already exists"): go
			// on as if it had been found.
			const raced = isUniqueViolation(error, 'email') || (await db.user.count({ where: { email: adminEmail } })) > 0
			if (!raced) throw error
			return seedAdmin({ db, auth, email, password, production })
		}
		seeded = { kind: 'created', email: adminEmail, publishedPassword: !chosen, retired: [] }
	} else if (roleOf(existing.role) !== 'admin') {
		seeded = { kind: 'not-admin', email: adminEmail, publishedPassword: false, retired: [] }
	} else if (await published(existing)) {
		const reason = chosen ? weakness() : null
		if (reason) return { kind: 'weak-password', email: adminEmail, reason }
		if (chosen) await replacePublishedPassword(db, auth, existing, chosen)
		seeded = { kind: chosen ? 'password-replaced' : 'exists', email: adminEmail, publishedPassword: !chosen, retired: [] }
	} else {
		seeded = { kind: 'exists', email: adminEmail, publishedPassword: false, retired: [] }
	}
	// The named account was just checked (or given the chosen password): only the others are looked at.
	if (chosen) seeded.retired = await retirePublishedAdmins(db, auth, published, adminEmail)
	return seeded
}

/**
 * Production refuses the published password whatever the email: ADMIN_EMAIL without
 * ADMIN_PASSWORD, or ADMIN_PASSWORD set to the published one. Nothing set at all is the
 * published default itself, which init creates (and warns about) [R23].
 */
export function refusesPublishedPassword(input: { email?: string; password?: string; production: boolean }) {
	const operatorSetSomething = input.email !== undefined || input.password !== undefined
	return input.production && operatorSetSomething && (input.password ?? DEFAULT_ADMIN_PASSWORD) === DEFAULT_ADMIN_PASSWORD
}

const adminSelect = {
	id: true,
	email: true,
	role: true,
	accounts: { where: { providerId: 'credential' }, select: { id: true, password: true } },
} as const

type AdminRow = { id: string; email: string; role: string; accounts: Array<{ id: string; password: string | null }> }

/** Whether an account signs in with the published password (better-auth's own hash check). */
async function publishedPasswordCheck(auth: Auth) {
	const { password } = await auth.$context
	return async (user: AdminRow) => {
		for (const account of user.accounts) {
			if (account.password && (await password.verify({ hash: account.password, password: DEFAULT_ADMIN_PASSWORD }))) return true
		}
		return false
	}
}

async function replacePublishedPassword(db: Db, auth: Auth, user: AdminRow, chosen: string) {
	const hash = await (await auth.$context).password.hash(chosen)
	await db.$transaction(async (tx) => {
		// Only the hash that was checked is replaced: a password changed meanwhile stays.
		for (const account of user.accounts) {
			await tx.account.updateMany({ where: { id: account.id, password: account.password }, data: { password: hash } })
		}
		await endAccess(tx, user.id)
	})
}

/** Every session and every outstanding reset link of a user whose password init just replaced [R26, R28]. */
async function endAccess(tx: Pick<Db, 'session' | 'verification'>, userId: string) {
	await tx.session.deleteMany({ where: { userId } })
	await tx.verification.deleteMany({ where: resetTokensOf([userId]) })
}

/**
 * Every other admin that still signs in with the published password loses the role and that
 * password [R29]: it gets a random one nobody knows (the account stays, with its Orders, and its
 * owner can get back in through a reset link where recovery is on), its sessions and reset links end.
 */
async function retirePublishedAdmins(db: Db, auth: Auth, published: (user: AdminRow) => Promise<boolean>, named: string) {
	const where = { role: { contains: 'admin' }, email: { not: named } }
	const admins = (await db.user.findMany({ where, select: adminSelect })).filter((user) => roleOf(user.role) === 'admin')
	const retired: string[] = []
	const context = await auth.$context
	for (const admin of admins) {
		if (!(await published(admin))) continue
		const role =
			admin.role
				.split(',')
				.filter((r) => r.trim() !== 'admin')
				.join(',') || 'user'
		const unusable = await context.password.hash(randomBytes(32).toString('base64url'))
		await db.$transaction(async (tx) => {
			await tx.user.update({ where: { id: admin.id }, data: { role }, select: { id: true } })
			for (const account of admin.accounts) {
				await tx.account.updateMany({ where: { id: account.id, password: account.password }, data: { password: unusable } })
			}
			await endAccess(tx, admin.id)
		})
		retired.push(admin.email)
	}
	return retired
}
