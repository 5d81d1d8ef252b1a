import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import { twoFactor } from 'better-auth/plugins'
import type { Db } from '../data/db.server'
import { runtimeStoreId } from '../data/runtime-store.server'
import { roleOf } from './roles'

/**
 * Two-factor sign-in (issue 10.4, ASVS 6.3.3; docs/decisions/027-two-factor.md).
 *
 * better-auth's two-factor plugin owns the factor: TOTP secret and backup codes (stored
 * encrypted with AUTH_SECRET), the challenge cookie, the code check, the per-challenge and
 * per-account attempt limits. A user who has enrolled is always asked for a code at a
 * password sign-in. The store adds one rule on top: while the Store requires it, an admin
 * who has NOT enrolled gets no session from a password sign-in at all.
 */
export const TWO_FACTOR_ENROLMENT_REQUIRED = 'TWO_FACTOR_ENROLMENT_REQUIRED'
export const ADMIN_TWO_FACTOR_REQUIRED = 'ADMIN_TWO_FACTOR_REQUIRED'

export const ENROLMENT_REQUIRED_MESSAGE =
	'This Store requires two-factor sign-in for administrators, and this account has not set it up. ' +
	'Set it up under Account → Sessions and security from a browser where you are still signed in, ' +
	'or sign in with your organisation’s sign-in if the Store offers it.'

/** Paths where better-auth checks a password and would create a session from it. */
const PASSWORD_SIGN_IN_PATHS = new Set(['/sign-in/email', '/sign-in/username', '/sign-in/phone-number'])

export type PasswordSignInVerdict = 'session' | 'second-factor' | 'refused'

/**
 * What a correct password alone earns (the rule, pure). An enrolled user always proves the
 * second factor; an un-enrolled admin is refused while the Store requires it; anyone else
 * gets a session. Managed (SSO) sign-ins never reach this rule: the provider owns the factors.
 */
export function passwordSignInVerdict(input: {
	role: string | null | undefined
	twoFactorEnabled: boolean | null | undefined
	storeRequiresAdminTwoFactor: boolean
}): PasswordSignInVerdict {
	if (input.twoFactorEnabled) return 'second-factor'
	if (input.storeRequiresAdminTwoFactor && roleOf(input.role) === 'admin') return 'refused'
	return 'session'
}

export async function storeRequiresAdminTwoFactor(db: Db): Promise<boolean> {
	const store = await db.store.findUnique({
		where: { id: await runtimeStoreId(db) },
		select: { requireAdminTwoFactor: true },
	})
	return store?.requireAdminTwoFactor ?? false
}

type SignedInUser = { id: string; role?: string | null; twoFactorEnabled?: boolean | null }

/**
 * The Store's requirement, enforced inside better-auth so the /sign-in page (auth.api) and a
 * direct POST /api/auth/sign-in/email cannot differ. It runs after the password was checked:
 * a wrong password still gets better-auth's one generic answer, never this one.
 */
function adminTwoFactorRule({ db }: { db: Db }) {
	return {
		id: 'store-admin-two-factor',
		hooks: {
			before: [
				{
					// Disabling the factor while the Store requires it would leave the admin unable to sign in.
					matcher: (ctx) => ctx.path === '/two-factor/disable',
					handler: createAuthMiddleware(async (ctx) => {
						const session = await getSessionFromCtx(ctx)
						if (!session || roleOf((session.user as SignedInUser).role) !== 'admin') return
						if (!(await storeRequiresAdminTwoFactor(db))) return
						throw new APIError('BAD_REQUEST', {
							code: ADMIN_TWO_FACTOR_REQUIRED,
							message: 'The Store requires two-factor sign-in for administrators: turn that off in Store Admin first.',
						})
					}),
				},
			],
			after: [
				{
					matcher: (ctx) => PASSWORD_SIGN_IN_PATHS.has(ctx.path ?? ''),
					handler: createAuthMiddleware(async (ctx) => {
						// Null after a wrong password, and after the two-factor plugin turned this into a challenge.
						const created = ctx.context.newSession
						if (!created) return
						const verdict = passwordSignInVerdict({
							role: (created.user as SignedInUser).role,
							twoFactorEnabled: (created.user as SignedInUser).twoFactorEnabled,
							storeRequiresAdminTwoFactor: await storeRequiresAdminTwoFactor(db),
						})
						if (verdict !== 'refused') return
						deleteSessionCookie(ctx)
						await ctx.context.internalAdapter.deleteSession(created.session.token)
						ctx.context.setNewSession(null)
						throw new APIError('FORBIDDEN', { code: TWO_FACTOR_ENROLMENT_REQUIRED, message: ENROLMENT_REQUIRED_MESSAGE })
					}),
				},
			],
		},
	} satisfies BetterAuthPlugin
}

/** better-auth's two-factor plugin (TOTP and backup codes) and the Store's admin rule. */
export function twoFactorPlugins({ db, issuer }: { db: Db; issuer: string }) {
	return [
		twoFactor({
			issuer,
			// Enrolment counts only after a code from the user's app confirmed it.
			skipVerificationOnEnable: false,
			backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
		}),
		adminTwoFactorRule({ db }),
	]
}
