/**
 * Start-up rules for operator sign-in [R24, R2]. Checked by
 * app/config/env.server.ts; messages name the variables, never their values.
 */
type OperatorVars = {
	AUTH_SECRET?: string
	SVC_API_URL?: string
	SVC_ADMIN_OAUTH_CLIENT_ID?: string
	SVC_ADMIN_OAUTH_CLIENT_SECRET?: string
	SVC_WORKLOAD_CREDENTIAL?: string
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Managed sign-in is on only when BOTH client values are set [R24]. */
export function managedSignInEnabled(vars: Pick<OperatorVars, 'SVC_ADMIN_OAUTH_CLIENT_ID' | 'SVC_ADMIN_OAUTH_CLIENT_SECRET'>) {
	return Boolean(vars.SVC_ADMIN_OAUTH_CLIENT_ID && vars.SVC_ADMIN_OAUTH_CLIENT_SECRET)
}

/** The first broken rule, or null. */
export function operatorSignInProblem(vars: OperatorVars): string | null {
	const workload = vars.SVC_WORKLOAD_CREDENTIAL
	if (workload) {
		// [R24] "Neither can substitute for the other" — so they can never be the same value.
		if (workload === vars.SVC_ADMIN_OAUTH_CLIENT_SECRET) {
			return 'SVC_WORKLOAD_CREDENTIAL must differ from SVC_ADMIN_OAUTH_CLIENT_SECRET (the workload credential is not an OAuth client secret)'
		}
		if (workload === vars.SVC_ADMIN_OAUTH_CLIENT_ID) {
			return 'SVC_WORKLOAD_CREDENTIAL must differ from SVC_ADMIN_OAUTH_CLIENT_ID'
		}
		if (workload === vars.AUTH_SECRET) return 'SVC_WORKLOAD_CREDENTIAL must differ from AUTH_SECRET'
	}
	if (vars.SVC_ADMIN_OAUTH_CLIENT_SECRET && vars.SVC_ADMIN_OAUTH_CLIENT_SECRET === vars.AUTH_SECRET) {
		return 'SVC_ADMIN_OAUTH_CLIENT_SECRET must differ from AUTH_SECRET'
	}
	if (!managedSignInEnabled(vars)) return null
	if (!vars.SVC_API_URL) {
		return 'managed sign-in (SVC_ADMIN_OAUTH_CLIENT_ID and SVC_ADMIN_OAUTH_CLIENT_SECRET) needs SVC_API_URL, the OpenID provider'
	}
	let api: URL
	try {
		api = new URL(vars.SVC_API_URL)
	} catch {
		return 'SVC_API_URL is not a URL'
	}
	// Tokens and the client secret travel to this origin: https, except to this machine itself.
	if (api.protocol !== 'https:' && !(api.protocol === 'http:' && LOOPBACK.has(api.hostname))) {
		return 'SVC_API_URL must be an https:// URL (http:// only for localhost)'
	}
	return null
}

/** The provider's origin when managed sign-in is on (the CSP lets the sign-in form go there). */
export function managedSignInOrigins(config: { managedSignIn: { apiUrl?: string; clientId?: string; clientSecret?: string } }) {
	const { apiUrl, clientId, clientSecret } = config.managedSignIn
	if (!apiUrl || !clientId || !clientSecret) return []
	return [new URL(apiUrl).origin]
}
