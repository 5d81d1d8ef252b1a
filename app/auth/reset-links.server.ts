import { createHash } from 'node:crypto'
import type { BetterAuthOptions, BetterAuthPlugin } from 'better-auth'
import { prismaAdapter } from 'better-auth/adapters/prisma'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import type { DBAdapter, DBTransactionAdapter, Where } from '@better-auth/core/db/adapter'
import type { DatabaseProvider } from '../config/database-url'
import type { Db } from '../data/db.server'
import { type StoreLimiter, UNAVAILABLE } from '../security/rate-limit/rate-limit.server'

/**
 * Password-reset links die with the credential they were sent for [R28]
 * (docs/decisions/072-reset-links-and-guessing-budgets.md). better-auth keeps each link's token as
 * a verification row `reset-password:<token>` whose value is the user's id, and spends only the
 * token that is used: every other link mailed to the account kept working after a reset, a
 * password change or a ban. Here every outstanding token of the account is deleted in the same
 * database transaction as the write that changes its password or bans it, whichever path makes
 * that write (reset, change, set, the admin plugin); init's own writes use `resetTokensOf`.
 */
export const RESET_TOKEN_PREFIX = 'reset-password:'

/** The Prisma filter of every reset token of `userIds` (verification rows). */
export const resetTokensOf = (userIds: string[]) => ({ identifier: { startsWith: RESET_TOKEN_PREFIX }, value: { in: userIds } })

type Write = { model: string; update?: Record<string, unknown>; data?: Record<string, unknown>; where?: Where[] }

/** Whether a write to better-auth's tables ends the account's reset links: a password written, or a ban. */
function endsResetLinks({ model, update, data }: Write) {
	if (model === 'account') return (update ?? data)?.password != null
	if (model === 'user') return update?.banned === true
	return false
}

/** The users a write touches, read before it in its transaction. */
async function usersOf(trx: DBTransactionAdapter, { model, data, where }: Write): Promise<string[]> {
	if (data) return typeof data.userId === 'string' ? [data.userId] : []
	const rows = await trx.findMany<{ id: string; userId?: string }>({ model, where: where ?? [] })
	return [...new Set(rows.map((row) => (model === 'account' ? row.userId : row.id)).filter((id): id is string => typeof id === 'string'))]
}

/**
 * better-auth's `database` option: the Prisma adapter, where a write that ends reset links runs in
 * a transaction of its own with the deletion of those links. The store's adapter runs
 * better-auth's own transactions as plain sequences of statements (Prisma's interactive
 * transactions are not switched on for it), so the write brings its own.
 */
export function withResetLinksEnded(db: Db, provider: DatabaseProvider) {
	const plain = prismaAdapter(db, { provider })
	const atomic = prismaAdapter(db, { provider, transaction: true })
	return <O extends BetterAuthOptions>(options: O): DBAdapter<O> => {
		const adapter = plain(options) as unknown as DBAdapter<O>
		const together = atomic(options) as unknown as DBAdapter<O>
		async function withLinksEnded<R>(write: Write, run: (trx: DBTransactionAdapter<O>) => Promise<R>): Promise<R> {
			return together.transaction(async (trx) => {
				const users = await usersOf(trx as unknown as DBTransactionAdapter, write)
				const result = await run(trx)
				if (users.length > 0) {
					await trx.deleteMany({
						model: 'verification',
						where: [
							{ field: 'identifier', operator: 'starts_with', value: RESET_TOKEN_PREFIX },
							{ field: 'value', operator: 'in', value: users },
						],
					})
				}
				return result
			})
		}
		const wrapped: DBAdapter<O> = {
			...adapter,
			create: (args) => (endsResetLinks(args) ? withLinksEnded(args, (trx) => trx.create(args)) : adapter.create(args)),
			update: (args) => (endsResetLinks(args) ? withLinksEnded(args, (trx) => trx.update(args)) : adapter.update(args)),
			updateMany: (args) => (endsResetLinks(args) ? withLinksEnded(args, (trx) => trx.updateMany(args)) : adapter.updateMany(args)),
			// As the Prisma adapter without transactions does: the callback gets the adapter itself.
			transaction: (callback) => callback(wrapped),
		}
		return wrapped
	}
}

/** better-auth's own answer to a reset request, for every address: the budget's refusal says the same. */
export const RESET_REQUESTED_ANSWER = { status: true, message: 'If this email exists in our system, check your email for the reset link' } as const

/**
 * At most RATE_LIMIT_PASSWORD_RESET reset mails per address (3 an hour), whoever asks and from
 * wherever [R28]: one client could mail an address eleven links in two minutes. Counted for every
 * address asked about, known or not, before better-auth looks the account up, and refused with
 * the same answer as a mail sent, so the budget tells nobody whether an account exists.
 */
export function resetRequestBudget(limiter: () => StoreLimiter) {
	return {
		id: 'store-reset-request-budget',
		hooks: {
			before: [
				{
					matcher: (ctx: { path?: string }) => ctx.path === '/request-password-reset',
					handler: createAuthMiddleware(async (ctx) => {
						const email = (ctx.body as { email?: unknown } | undefined)?.email
						if (typeof email !== 'string') return
						const key = createHash('sha256').update(`reset\n${email.trim().toLowerCase()}`).digest('base64url')
						const decision = await limiter().check(key, 'passwordReset')
						if (decision === 'unavailable') throw new APIError('SERVICE_UNAVAILABLE', { code: 'TEMPORARILY_UNAVAILABLE', message: UNAVAILABLE.message })
						if (decision && !decision.success) return ctx.json({ ...RESET_REQUESTED_ANSWER })
					}),
				},
			],
		},
	} satisfies BetterAuthPlugin
}
