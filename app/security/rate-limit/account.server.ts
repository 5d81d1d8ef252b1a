import { data } from 'react-router'
import { getConfig } from '../../config/env.server'
import { formFailure } from '../form.server'
import { getStoreLimiter, rateLimitHeaders, tooManyMessage } from './rate-limit.server'

/**
 * Sign-in is also limited per account (the normalised email), whatever address the attempts
 * come from (issue 7.3). The window expires (RATE_LIMIT_ACCOUNT, default 10 per 15 minutes),
 * so nobody can lock a real user out for long. Returns the 429 to answer, or null.
 */
export async function accountLimit(email: string) {
	const decision = await getStoreLimiter(getConfig()).check(`account:${email.trim().toLowerCase()}`, 'account')
	if (decision === null) return null
	if (decision === 'unavailable') return { status: 503 as const, headers: { 'Retry-After': '5' }, message: 'Sign-in is briefly unavailable. Please retry shortly.' }
	if (decision.success) return null
	return { status: 429 as const, headers: rateLimitHeaders(decision), message: tooManyMessage(decision) }
}

/** The sign-in form's answer when the account is over its limit. */
export async function limitSignInAccount(email: string) {
	const limited = await accountLimit(email)
	return limited ? data(formFailure({}, limited.message), { status: limited.status, headers: limited.headers }) : null
}
