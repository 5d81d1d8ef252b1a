import { betterAuth } from 'better-auth'
import { prismaAdapter } from 'better-auth/adapters/prisma'
import { admin } from 'better-auth/plugins'
import { type Config, getConfig } from '../config/env.server'
import { type Db, getDb } from '../data/db.server'
import { runtimeStoreId } from '../data/runtime-store.server'
import { CLIENT_IP_HEADER } from '../security/http.server'
import { authSecretVersions } from '../security/secret-policy'
import { mergeGuestCart } from '../cart/cart.server'
import { claimGuestOrders } from '../orders/claim.server'
import { accountRules } from './account-rules.server'
import { hashPassword, verifyPassword } from './password-hashing.server'
import { guestIdFromCookieHeader } from './guest-cookie.server'
import { ssoPlugins } from './sso.server'
import { twoFactorPlugins } from './two-factor.server'
import { withUserReadsRemembered } from './user-reads.server'
import { workloadCredentialRule } from './workload-credential.server'

const adminPlugin = () => admin({ defaultRole: 'user', adminRoles: ['admin'] })

/**
 * Issue 5.4, docs/decisions/010-admin-api-surface.md: the admin plugin gives roles, bans
 * and the server-side `auth.api.createUser` the seeding uses, but none of its HTTP
 * endpoints backs a screen of the store, so every one of them answers 404 over HTTP.
 */
export const ADMIN_HTTP_PATHS = Object.values(adminPlugin().endpoints).map((endpoint) => endpoint.path)

/**
 * better-auth owns sessions, cookies and password checks; its scrypt runs in a worker
 * pool (password-hashing.server.ts) with the same parameters and stored format.
 * Spec 5.3: email and password on for Customers and admins. Spec 5.4: no
 * password-reset or verification callbacks are registered. Spec 5.5: no social
 * providers are configured, whatever credentials the environment holds.
 */
export const APP_NAME = 'Store'

export function createAuth({ db, config }: { db: Db; config: Config }) {
	const scopeToStore = async <T extends object>(row: T) => ({
		data: { ...row, storeId: await runtimeStoreId(db) },
	})
	return betterAuth({
		appName: APP_NAME,
		// R14 (docs/decisions/032-secret-rotation.md): AUTH_SECRET signs cookies and seals new two-factor
		// secrets; the secrets it replaced still open what they sealed. `secret` opens what was stored
		// before ciphertexts carried a version.
		secret: config.authSecret,
		secrets: authSecretVersions(config),
		baseURL: config.authUrl,
		basePath: '/api/auth',
		disabledPaths: ADMIN_HTTP_PATHS,
		trustedOrigins: config.trustedOrigins,
		// Issue 11.5 (user-reads.server.ts): a sign-in reads its user once, not again for the ban check.
		database: withUserReadsRemembered(prismaAdapter(db, { provider: config.databaseProvider })),
		emailAndPassword: {
			enabled: true,
			autoSignIn: true,
			minPasswordLength: 8,
			maxPasswordLength: 128,
			// better-auth's scrypt and format, off libuv's shared pool (issue 11.4).
			password: { hash: hashPassword, verify: verifyPassword },
		},
		user: {
			// input: false — a caller can never set these at sign-up or profile update.
			additionalFields: {
				storeId: { type: 'string', required: false, input: false, returned: false },
			},
		},
		session: {
			additionalFields: {
				storeId: { type: 'string', required: false, input: false },
			},
		},
		databaseHooks: {
			// Store scope is stamped by the server, never read from a request.
			user: {
				create: {
					before: scopeToStore,
					// Order claiming (spec 3.2): off until Stable; proof is this browser's guestId.
					after: async (user, ctx) => {
						const guestId = await guestIdFromCookieHeader(ctx?.headers?.get('cookie'))
						await claimGuestOrders({ db, storeId: await runtimeStoreId(db), userId: user.id, guestId })
					},
				},
			},
			session: {
				create: {
					before: scopeToStore,
					// A guest who signs in or up keeps their cart (pages and /api/auth/* alike).
					after: async (session, ctx) => {
						const guestId = await guestIdFromCookieHeader(ctx?.headers?.get('cookie'))
						const storeId = (session as { storeId?: string }).storeId
						if (guestId && storeId) await mergeGuestCart({ db, storeId, guestId, userId: session.userId })
					},
				},
			},
		},
		advanced: {
			// One query for a user and their accounts, or a session and its user (issue 11: sign-in and
			// every signed-in page paid for two compiled Prisma queries where one does).
			database: { joins: true },
			useSecureCookies: config.authUrl.startsWith('https:'),
			ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
		},
		telemetry: { enabled: false },
		// One 429 contract: the store's own limiter fronts /api/auth/* (app/security/rate-limit/).
		rateLimit: { enabled: false },
		// Issue 10: OAuth callback failures land on the sign-in page, which explains them.
		onAPIError: { errorURL: `${config.appUrl}/sign-in` },
		plugins: [
			adminPlugin(),
			accountRules({ db }),
			// Issue 10 (app/auth/sso.server.ts, workload-credential.server.ts): managed sign-in when configured.
			workloadCredentialRule(config),
			...ssoPlugins({ db, config }),
			// Issue 10.4 (app/auth/two-factor.server.ts): TOTP and backup codes; the Store's admin rule.
			...twoFactorPlugins({ db, issuer: APP_NAME }),
		],
	})
}

export type Auth = ReturnType<typeof createAuth>

const globalForAuth = globalThis as unknown as { storeAuth?: Auth }

export function getAuth(): Auth {
	globalForAuth.storeAuth ??= createAuth({ db: getDb(), config: getConfig() })
	return globalForAuth.storeAuth
}
