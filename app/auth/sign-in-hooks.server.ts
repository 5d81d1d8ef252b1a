import type { Db } from '../data/db.server'
import type { StoreScope } from '../data/scope'

/**
 * What commerce does when someone signs up or in (claim guest Orders, merge the guest cart).
 * Auth sits below the commerce concerns, so it does not import them: the layer above registers
 * these once (app/repositories.server.ts) and better-auth's hooks call whatever is registered.
 */
export type SignInHookArgs = { scope: StoreScope; userId: string; guestId: string | null }
export type SignInHooks = {
	/** After a user is created, with the browser's guestId when it had one. */
	afterSignUp?(args: SignInHookArgs): Promise<void>
	/** After a session is created (sign-in, sign-up, SSO), with the browser's guestId. */
	afterSessionCreated?(args: SignInHookArgs & { guestId: string }): Promise<void>
	/** A password reset was asked for an existing account: mail it the single-use token (in `db`, auth's own). */
	resetRequested?(args: { db: Db; storeId: string; email: string; token: string }): Promise<void>
}

let registered: SignInHooks = {}

export function registerSignInHooks(hooks: SignInHooks) {
	registered = hooks
}

export const signInHooks = (): SignInHooks => registered
