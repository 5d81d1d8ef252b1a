/**
 * Where a sign-in lands when nothing asked for a page: Store Admin for admins, the account
 * page for everyone else. Read from better-auth's answer (its `user`, with the admin
 * plugin's `role`); an answer without one is treated as a Customer's.
 */
export function homeAfterSignIn(response: unknown): '/admin' | '/account' {
	const user = (response as { user?: { role?: unknown } } | null | undefined)?.user
	return user?.role === 'admin' ? '/admin' : '/account'
}
