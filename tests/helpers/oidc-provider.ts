/**
 * A real OpenID provider on loopback for the managed sign-in tests: panva's
 * `oidc-provider` with a static client (client_secret_post), the custom scope `store:admin`
 * and a `roles` claim. Each test account says which claims it carries and which scopes the
 * provider GRANTS it (whatever the store requests), so a test can withhold `store:admin`.
 * Its login page is the library's development page (fields `login`, `password`).
 */
import type { Server } from 'node:http'
import Provider from 'oidc-provider'
import { freePort } from './http.ts'

export type IdpAccount = {
	email: string
	emailVerified?: boolean
	name?: string
	roles?: string[]
	/** Scopes the provider grants this account; default: everything but `store:admin`. */
	grantedScopes?: string[]
}

export type TestIdp = {
	issuer: string
	clientId: string
	clientSecret: string
	/** Creates or replaces the account signing in as `login`. */
	setAccount(login: string, account: IdpAccount): void
	close(): Promise<void>
}

const ALL_SCOPES = ['openid', 'profile', 'email', 'store:admin']

export async function startTestIdp({
	clientId,
	clientSecret,
	redirectUris,
	port,
}: {
	clientId: string
	clientSecret: string
	redirectUris: string[]
	port?: number
}): Promise<TestIdp> {
	const listenPort = port ?? (await freePort())
	const issuer = `http://127.0.0.1:${listenPort}`
	const accounts = new Map<string, IdpAccount>()
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: clientId,
				client_secret: clientSecret,
				redirect_uris: redirectUris,
				token_endpoint_auth_method: 'client_secret_post',
				grant_types: ['authorization_code'],
				response_types: ['code'],
				scope: ALL_SCOPES.join(' '),
			},
		],
		scopes: ALL_SCOPES,
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'roles'] },
		// Scope claims in the ID token too, as many managed providers do.
		conformIdTokenClaims: false,
		features: { devInteractions: { enabled: true } },
		cookies: { keys: ['test-idp-cookie-key-not-a-secret'] },
		async findAccount(_ctx, id) {
			const account = accounts.get(id)
			if (!account) return undefined
			return {
				accountId: id,
				async claims() {
					return {
						sub: id,
						email: account.email,
						email_verified: account.emailVerified ?? true,
						name: account.name ?? id,
						roles: account.roles ?? [],
					}
				},
			}
		},
		// No consent screen: the grant holds exactly the account's scopes and rejects the rest.
		async loadExistingGrant(ctx) {
			const accountId = ctx.oidc.session?.accountId
			const client = ctx.oidc.client
			if (!accountId || !client) return undefined
			const account = accounts.get(accountId)
			const granted = account?.grantedScopes ?? ['openid', 'profile', 'email']
			const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId })
			grant.addOIDCScope(granted.join(' '))
			const rejected = ALL_SCOPES.filter((s) => !granted.includes(s))
			if (rejected.length > 0) grant.rejectOIDCScope(rejected.join(' '))
			await grant.save()
			return grant
		},
	})
	const server: Server = await new Promise((resolve) => {
		const s = provider.listen(listenPort, '127.0.0.1', () => resolve(s))
	})
	return {
		issuer,
		clientId,
		clientSecret,
		setAccount(login, account) {
			accounts.set(login, account)
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}
