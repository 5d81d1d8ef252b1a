import { defineRequestState } from '@better-auth/core/context'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import { twoFactor } from 'better-auth/plugins/two-factor'
import type { Db } from '../data/db.server'
import { runtimeStoreId } from '../data/runtime-store.server'
import { roleOf } from './roles'
import { type CodeClaim, type OneTimeCodeKind, claimOneTimeCode, releaseOneTimeCode } from './two-factor-codes.server'

/**
 * Two-factor sign-in (ASVS 6.3.3; docs/decisions/027-two-factor.md).
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

type VerifyCtx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]

/** The user a code check is about: the signed-in user (enrolment) or the challenge's (sign-in). */
async function codeUserId(ctx: VerifyCtx): Promise<string | null> {
	const session = await getSessionFromCtx(ctx).catch(() => null)
	if (session) return session.user.id
	const cookie = ctx.context.createAuthCookie('two_factor')
	const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
	if (!challenge) return null
	const row = await ctx.context.internalAdapter.findVerificationValue(challenge)
	return row?.value ?? null
}

/** Retry-After and X-RateLimit-Reset for a lock that ends at `until`. */
export function lockHeaders(until: Date, now = Date.now()): Record<string, string> {
	return {
		'Retry-After': String(Math.max(1, Math.ceil((until.getTime() - now) / 1000))),
		'X-RateLimit-Reset': String(Math.ceil(until.getTime() / 1000)),
	}
}

function codeOf(ctx: VerifyCtx) {
	const code = (ctx.body as { code?: unknown } | undefined)?.code
	return typeof code === 'string' ? code : null
}

/** The endpoints that accept a one-time code, and better-auth's own answer to a wrong one. */
const CODE_PATHS = new Map<string, { kind: OneTimeCodeKind; refusal: { code: string; message: string } }>([
	['/two-factor/verify-totp', { kind: 'totp', refusal: { code: 'INVALID_CODE', message: 'Invalid code' } }],
	['/two-factor/verify-backup-code', { kind: 'backup', refusal: { code: 'INVALID_BACKUP_CODE', message: 'Invalid backup code' } }],
])

/** This request's claim on its code, from the before hook to the after hook. */
const requestClaim = defineRequestState<CodeClaim | null>(() => null)

/**
 * The store's rules on top of the plugin, inside better-auth so the pages (auth.api) and direct
 * /api/auth/* requests cannot differ: single-use codes; no disabling the factor while the
 * Store requires it of admins; and the requirement itself, checked after the password was (a
 * wrong password still gets better-auth's one generic answer, never the enrolment message).
 */
function adminTwoFactorRule({ db }: { db: Db }) {
	return {
		id: 'store-admin-two-factor',
		hooks: {
			before: [
				{
					// R25: the code is claimed before better-auth checks it; a racer that lost gets the wrong-code answer.
					matcher: (ctx) => CODE_PATHS.has(ctx.path ?? ''),
					handler: createAuthMiddleware(async (ctx) => {
						await requestClaim.set(null)
						const path = CODE_PATHS.get(ctx.path ?? '')
						const code = codeOf(ctx)
						const userId = path && code ? await codeUserId(ctx) : null
						if (!path || !code || !userId) return
						const claim = await claimOneTimeCode(db, { userId, kind: path.kind, code })
						if (!claim) throw new APIError('UNAUTHORIZED', path.refusal)
						await requestClaim.set(claim)
					}),
				},
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
					matcher: (ctx) => CODE_PATHS.has(ctx.path ?? ''),
					handler: createAuthMiddleware(async (ctx) => {
						// A code that opened a session (or confirmed an enrolment) stays claimed: it is spent.
						const claim = await requestClaim.get()
						await requestClaim.set(null)
						const returned = ctx.context.returned
						if (claim && returned instanceof APIError) await releaseOneTimeCode(db, claim)
						// The plugin's lock after many wrong codes is a limit like any other: its 429
						// carries the lock's own window, once each [R51].
						if (returned instanceof APIError && returned.statusCode === 429) {
							const userId = await codeUserId(ctx)
							const lock = userId ? await db.twoFactor.findFirst({ where: { userId }, select: { lockedUntil: true } }) : null
							if (lock?.lockedUntil) throw new APIError('TOO_MANY_REQUESTS', returned.body, { ...returned.headers, ...lockHeaders(lock.lockedUntil) })
						}
					}),
				},
				{
					matcher: (ctx) => PASSWORD_SIGN_IN_PATHS.has(ctx.path ?? ''),
					handler: createAuthMiddleware(async (ctx) => {
						// Null after a wrong password, and after the two-factor plugin turned this into a challenge.
						const created = ctx.context.newSession
						if (!created) return
						// Only an admin without a factor can be refused: nobody else costs a Store read.
						const user = created.user as SignedInUser
						if (user.twoFactorEnabled || roleOf(user.role) !== 'admin') return
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
