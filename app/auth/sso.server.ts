import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { type GenericOAuthUserInfo, genericOAuth } from 'better-auth/plugins/generic-oauth'
import { decodeJwt } from 'jose'
import type { Config } from '../config/env.server'
import type { Db } from '../data/db.server'

/**
 * Managed single sign-on for Store Admin [R24] (docs/decisions/025-managed-sign-in.md).
 * One OpenID provider, found by discovery at SVC_API_URL's origin, through better-auth's generic
 * OAuth plugin (PKCE, state, nonce, issuer and ID-token checks are its own). The local `admin`
 * role follows what the provider says AT EACH SIGN-IN: the profile's role, or the scopes the
 * token response actually granted — never the account's accumulated `scope` column.
 */
export const SSO_PROVIDER_ID = 'store-sso'
export const SSO_SCOPES = ['openid', 'profile', 'email', 'store:admin'] as const
export const STORE_ADMIN_SCOPE = 'store:admin'

export type ManagedSignIn = {
	providerId: string
	name: string
	origin: string
	discoveryUrl: string
	clientId: string
	clientSecret: string
}

/** The provider, or null when it is off (either client value unset). */
export function managedSignIn(config: Pick<Config, 'managedSignIn'>): ManagedSignIn | null {
	const { apiUrl, clientId, clientSecret, name } = config.managedSignIn
	if (!clientId || !clientSecret || !apiUrl) return null
	const origin = new URL(apiUrl).origin
	return {
		providerId: SSO_PROVIDER_ID,
		name: name ?? new URL(apiUrl).host,
		origin,
		discoveryUrl: `${origin}/.well-known/openid-configuration`,
		clientId,
		clientSecret,
	}
}

/** What the browser may know about the provider: its label, nothing else. */
export function managedSignInButton(config: Pick<Config, 'managedSignIn'>) {
	const sso = managedSignIn(config)
	return sso ? { name: sso.name } : null
}

/** [R24] admin only with the profile's `admin` role or a granted `store:admin` scope. */
export function grantsStoreAdmin(profile: Record<string, unknown>, grantedScopes: readonly string[] | undefined) {
	const roles = [profile.role, profile.roles].flatMap((value) => (Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : []))
	return roles.includes('admin') || (grantedScopes ?? []).includes(STORE_ADMIN_SCOPE)
}

// The decision made while the callback read the provider's answer, until the after-hook applies
// it to the local user (same request, same process). Keyed by the provider's subject.
const pendingDecisions = new Map<string, { admin: boolean; expires: number }>()
const DECISION_TTL_MS = 60_000

function remember(subject: string, admin: boolean) {
	const now = Date.now()
	for (const [key, value] of pendingDecisions) if (value.expires < now) pendingDecisions.delete(key)
	pendingDecisions.set(subject, { admin, expires: now + DECISION_TTL_MS })
}

function take(subject: string) {
	const decision = pendingDecisions.get(subject)
	pendingDecisions.delete(subject)
	return decision && decision.expires >= Date.now() ? decision.admin : false
}

type Discovery = { userinfo_endpoint?: string; issuer?: string }

/**
 * better-auth verified the ID token (signature against the discovered JWKS, issuer, audience,
 * nonce) before this runs; its claims are the profile, with the userinfo endpoint's answer
 * filling in what the token left out (some providers put roles only there).
 */
function userInfoReader(sso: ManagedSignIn) {
	let discovery: Promise<Discovery> | undefined
	const discover = () => {
		discovery ??= fetch(sso.discoveryUrl, { signal: AbortSignal.timeout(5_000) })
			.then((r) => (r.ok ? (r.json() as Promise<Discovery>) : {}))
			.catch(() => ({}))
		return discovery
	}
	return async (tokens: { idToken?: string; accessToken?: string; scopes?: string[] }): Promise<GenericOAuthUserInfo | null> => {
		if (!tokens.idToken) return null
		const claims = decodeJwt(tokens.idToken) as Record<string, unknown>
		if (typeof claims.sub !== 'string' || !claims.sub) return null
		// The issuer must be the provider SVC_API_URL names, not one its discovery document points elsewhere to.
		if (typeof claims.iss !== 'string' || new URL(claims.iss).origin !== sso.origin) return null
		let extra: Record<string, unknown> = {}
		const { userinfo_endpoint: endpoint } = await discover()
		if (endpoint && tokens.accessToken && new URL(endpoint).origin === sso.origin) {
			const response = await fetch(endpoint, {
				headers: { authorization: `Bearer ${tokens.accessToken}` },
				signal: AbortSignal.timeout(5_000),
			}).catch(() => null)
			if (response?.ok) {
				const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
				if (body.sub === claims.sub) extra = body
			}
		}
		const profile = { ...extra, ...claims }
		remember(claims.sub, grantsStoreAdmin(profile, tokens.scopes))
		return {
			...profile,
			id: claims.sub,
			sub: claims.sub,
			email: typeof profile.email === 'string' ? profile.email.toLowerCase() : undefined,
			emailVerified: profile.email_verified === true || profile.email_verified === 'true',
			name: typeof profile.name === 'string' && profile.name.trim() ? profile.name : String(profile.email ?? 'Operator'),
		} as GenericOAuthUserInfo
	}
}

/**
 * Grants or removes `admin` after a completed managed sign-in. Removing it ends every other
 * session of the user [R26] (removing the admin role ends the user's admin sessions).
 */
export async function applyStoreAdminDecision({ db, userId, admin, keepSessionId }: { db: Db; userId: string; admin: boolean; keepSessionId?: string }) {
	const user = await db.user.findUnique({ where: { id: userId }, select: { role: true } })
	if (!user) return
	const roles = (user.role ?? 'user')
		.split(',')
		.map((r) => r.trim())
		.filter(Boolean)
	const wasAdmin = roles.includes('admin')
	if (wasAdmin === admin) return
	const next = admin ? [...roles.filter((r) => r !== 'user'), 'admin'] : roles.filter((r) => r !== 'admin')
	await db.user.update({ where: { id: userId }, data: { role: next.length > 0 ? next.join(',') : 'user' } })
	if (wasAdmin && !admin) await revokeSessions({ db, userId, keepSessionId })
}

async function revokeSessions({ db, userId, keepSessionId }: { db: Db; userId: string; keepSessionId?: string }) {
	await db.session.deleteMany({ where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) } })
}

function storeAdminRole(db: Db, sso: ManagedSignIn) {
	return {
		id: 'store-admin-sso-role',
		hooks: {
			after: [
				{
					matcher: (ctx) => ctx.path === '/callback/:id' && ctx.params?.id === sso.providerId,
					handler: createAuthMiddleware(async (ctx) => {
						const created = ctx.context.newSession
						if (!created) return
						const account = await db.account.findFirst({
							where: { userId: created.user.id, providerId: sso.providerId },
							select: { accountId: true },
							orderBy: { updatedAt: 'desc' },
						})
						await applyStoreAdminDecision({
							db,
							userId: created.user.id,
							admin: account ? take(account.accountId) : false,
							keepSessionId: created.session.id,
						})
					}),
				},
			],
		},
	} satisfies BetterAuthPlugin
}

/** The plugins managed sign-in adds to better-auth: none when it is off. */
export function ssoPlugins({ db, config }: { db: Db; config: Pick<Config, 'managedSignIn'> }) {
	const sso = managedSignIn(config)
	if (!sso) return []
	return [
		genericOAuth({
			config: [
				{
					providerId: sso.providerId,
					name: sso.name,
					discoveryUrl: sso.discoveryUrl,
					clientId: sso.clientId,
					clientSecret: sso.clientSecret,
					tokenEndpointAuth: { method: 'client_secret_post' },
					scopes: [...SSO_SCOPES],
					pkce: true,
					requireIdTokenVerification: true,
					getUserInfo: userInfoReader(sso),
				},
			],
		}),
		storeAdminRole(db, sso),
	]
}

/**
 * Whether `path` (lower-cased) is an OAuth callback of a provider that is not on: those
 * answer 404, so a social provider's or a disabled SSO's callback is no route at all.
 */
export function unknownProviderRoute(path: string, config: Pick<Config, 'managedSignIn'>) {
	const match = /^\/api\/auth\/(?:oauth2\/)?callback(?:\/([^/]*))?\/?$/.exec(path)
	if (!match) return false
	return match[1] !== managedSignIn(config)?.providerId
}
