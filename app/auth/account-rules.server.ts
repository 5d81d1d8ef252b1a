import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { deleteSessionCookie } from 'better-auth/cookies'
import type { z } from 'zod'
import type { Db } from '../data/db.server'
import { fields } from '../security/form.server'
import { passwordWeakness } from '../rules/strength.server'

/**
 * The store's account rules, enforced inside better-auth so that the pages (which call
 * `auth.api.*`) and direct `/api/auth/*` requests cannot drift apart [R43]:
 * - name and email obey the forms' own field rules, on sign-up, profile update and any
 *   user the server creates (database hooks are the backstop for every path);
 * - a new password must pass the strength estimator (sign-up, change and set password);
 * - a banned user's sessions are refused on every endpoint and revoked on sight.
 */
export const PASSWORD_TOO_WEAK = 'PASSWORD_TOO_WEAK'
export const BANNED_USER = 'BANNED_USER'

type BanState = { banned?: boolean | null; banExpires?: Date | string | null }

/** The admin plugin's rule: a ban with a past expiry no longer applies. */
export function isBanActive(user: BanState | null | undefined): boolean {
	if (!user?.banned) return false
	return !user.banExpires || new Date(user.banExpires).getTime() > Date.now()
}

function fieldRule(schema: z.ZodType<string>, value: unknown, code: string) {
	const parsed = schema.safeParse(value)
	if (!parsed.success) {
		throw new APIError('BAD_REQUEST', { code, message: parsed.error.issues[0]?.message ?? 'Invalid value' })
	}
	return parsed.data
}

/** Normalised name and email for a user row being written, or a 400. */
export function checkProfileFields<T extends { name?: unknown; email?: unknown }>(user: T): T {
	const out = { ...user }
	if ('name' in user && user.name !== undefined) out.name = fieldRule(fields.name, user.name, 'INVALID_NAME')
	if ('email' in user && user.email !== undefined) out.email = fieldRule(fields.email, user.email, 'INVALID_EMAIL')
	return out
}

function checkNewPassword(password: unknown, userInputs: unknown[]) {
	if (typeof password !== 'string') return // better-auth's own validation answers this
	const weakness = passwordWeakness(
		password,
		userInputs.filter((input): input is string => typeof input === 'string'),
	)
	if (weakness) throw new APIError('BAD_REQUEST', { code: PASSWORD_TOO_WEAK, message: weakness })
}

type Body = Record<string, unknown> | undefined

/**
 * Whether a hook's request may carry the cookie `name`: false only when its Cookie header (the
 * context's headers, else its request's: where better-call reads cookies from) holds that name
 * nowhere, so no parser can find it (better-call's reads names verbatim, trimmed). Lets a hook
 * that starts by reading the cookie be skipped without running it (every sign-in
 * without a session ran this hook's whole middleware for nothing).
 */
export function mayCarryCookie(ctx: { headers?: Headers; request?: Request }, name: string): boolean {
	const headers = ctx.headers ?? ctx.request?.headers
	return headers?.get('cookie')?.includes(name) ?? false
}

export function accountRules({ db }: { db: Db }) {
	const revokeAll = (userId: string) => db.session.deleteMany({ where: { userId } })

	return {
		id: 'store-account-rules',
		init() {
			return {
				options: {
					databaseHooks: {
						user: {
							create: { before: async (user) => ({ data: checkProfileFields(user) }) },
							update: {
								before: async (user) => ({ data: checkProfileFields(user) }),
								// However a ban is made through better-auth, it ends the user's sessions.
								after: async (user) => {
									if (isBanActive(user as BanState)) await revokeAll(user.id)
								},
							},
						},
					},
				},
			}
		},
		hooks: {
			before: [
				{
					matcher: (ctx) => ctx.path === '/sign-up/email',
					handler: createAuthMiddleware(async (ctx) => {
						const body = ctx.body as Body
						checkProfileFields({ name: body?.name, email: body?.email })
						checkNewPassword(body?.password, [body?.email, body?.name])
					}),
				},
				{
					matcher: (ctx) => ctx.path === '/update-user',
					handler: createAuthMiddleware(async (ctx) => {
						const body = ctx.body as Body
						if (body && 'name' in body) checkProfileFields({ name: body.name })
					}),
				},
				{
					// A reset has no session: the strength rules without the account's own words.
					matcher: (ctx) => ctx.path === '/reset-password',
					handler: createAuthMiddleware(async (ctx) => {
						checkNewPassword((ctx.body as Body)?.newPassword, [])
					}),
				},
				{
					matcher: (ctx) => ctx.path === '/change-password' || ctx.path === '/set-password',
					handler: createAuthMiddleware(async (ctx) => {
						const session = await getSessionFromCtx(ctx)
						checkNewPassword((ctx.body as Body)?.newPassword, [session?.user.email, session?.user.name])
					}),
				},
				{
					// Every endpoint but get-session (checked after it ran, below, to save a lookup), and
					// only when a session cookie came: without one there is no session to refuse.
					matcher: (ctx) => ctx.path !== '/get-session' && mayCarryCookie(ctx, ctx.context.authCookies.sessionToken.name),
					handler: createAuthMiddleware(async (ctx) => {
						const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret)
						if (!token) return
						const found = await ctx.context.internalAdapter.findSession(token)
						if (!found || !isBanActive(found.user as BanState)) return
						await revokeAll(found.user.id)
						deleteSessionCookie(ctx)
						throw new APIError('UNAUTHORIZED', { code: BANNED_USER, message: 'This account is suspended.' })
					}),
				},
			],
			after: [
				{
					matcher: (ctx) => ctx.path === '/get-session',
					handler: createAuthMiddleware(async (ctx) => {
						const returned = ctx.context.returned as { user?: BanState & { id: string } } | null | undefined
						if (!returned?.user || !isBanActive(returned.user)) return
						await revokeAll(returned.user.id)
						deleteSessionCookie(ctx)
						return ctx.json(null)
					}),
				},
			],
		},
	} satisfies BetterAuthPlugin
}
