import { createHash } from 'node:crypto'
import type { Db } from '../data/db.server'
import { isUniqueViolation } from '../data/unique-violation'

/**
 * One-time codes are accepted once, even when the same code reaches several sign-ins at the
 * same instant [R25]. better-auth checks a TOTP code against the current ±1 time step as often
 * as it is sent, and a check-then-remember rule lets racers through together (three sessions
 * from one code). So a request first *claims* its code with a write only one racer can win,
 * before better-auth looks at the code or any session exists: an insert on the primary key of
 * a row in the verification table, or, once an old claim's time is up, a conditional update of
 * that row. Both are single statements, atomic on SQLite and PostgreSQL alike.
 *
 * A claim outlives every window in which its code is accepted (TOTP: about 90 s), so a spent
 * code stays refused; a backup code is gone from its list long before its claim ends. The row
 * holds a hash of the code, never the code.
 */
export const CLAIM_TTL_MS = 120_000

export type OneTimeCodeKind = 'totp' | 'backup'

export type CodeClaim = { id: string }

function claimId(userId: string, kind: OneTimeCodeKind, code: string) {
	return `otp-claim-${createHash('sha256').update(`${kind}:${userId}:${code}`).digest('base64url')}`
}

/** The claim of `code` for this request, or null when another request holds it (or spent it). */
export async function claimOneTimeCode(db: Db, input: { userId: string; kind: OneTimeCodeKind; code: string; now?: Date }): Promise<CodeClaim | null> {
	const now = input.now ?? new Date()
	const id = claimId(input.userId, input.kind, input.code)
	const expiresAt = new Date(now.getTime() + CLAIM_TTL_MS)
	try {
		await db.verification.create({ data: { id, identifier: id, value: input.userId, expiresAt }, select: { id: true } })
		return { id }
	} catch (error) {
		if (!isUniqueViolation(error)) throw error
	}
	// The row exists: it may be taken over once its time is up, and only by one racer.
	const { count } = await db.verification.updateMany({ where: { id, expiresAt: { lte: now } }, data: { expiresAt } })
	return count === 1 ? { id } : null
}

/** Gives a code back after better-auth refused it: it opened nothing (and may be the next time step's code). */
export async function releaseOneTimeCode(db: Db, claim: CodeClaim) {
	await db.verification.deleteMany({ where: { id: claim.id } })
}
