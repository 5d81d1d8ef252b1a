import { APIError } from 'better-auth/api'
import { getConfig } from '../config/env.server'
import { getAuth } from './auth.server'
import { safeRedirect } from './safe-redirect'
import { managedSignIn } from './sso.server'

/**
 * Starts a managed sign-in from the sign-in page's form (works without JavaScript): better-auth
 * mints state, PKCE verifier and nonce, sets its state cookie, and answers the provider's URL.
 */
export async function startManagedSignIn({ request, redirectTo }: { request: Request; redirectTo?: string }) {
	const sso = managedSignIn(getConfig())
	if (!sso) return null
	try {
		const { headers, response } = await getAuth().api.signInSocial({
			body: {
				provider: sso.providerId,
				callbackURL: safeRedirect(redirectTo, '/admin'),
				errorCallbackURL: '/sign-in',
			},
			headers: request.headers,
			returnHeaders: true,
		})
		if (!response.url) return { ok: false as const }
		const out = new Headers()
		for (const cookie of headers.getSetCookie()) out.append('Set-Cookie', cookie)
		return { ok: true as const, url: response.url, headers: out }
	} catch (error) {
		if (error instanceof APIError) return { ok: false as const }
		throw error
	}
}

/** What the sign-in page says when the provider's round trip failed (`?error=` from better-auth). */
export function managedSignInError(code: string | null): string | null {
	if (!code) return null
	if (code === 'account_not_linked') {
		return (
			'An account with this email already exists in this store. Single sign-on does not take over ' +
			'an existing account unless both sides have verified the email: sign in with your password instead, ' +
			'or ask your provider to verify your email.'
		)
	}
	if (code === 'access_denied') return 'Single sign-on was cancelled at the provider.'
	return 'Single sign-on could not be completed. Please try again.'
}
