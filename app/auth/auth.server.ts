import { betterAuth } from 'better-auth/minimal'
import { admin } from 'better-auth/plugins/admin'
import { type Config, getConfig } from '../config/env.server'
import { type Db, getDb } from '../data/db.server'
import { runtimeStoreId } from '../data/runtime-store.server'
import { CLIENT_IP_HEADER } from '../security/http.server'
import { authSecretVersions } from '../config/secret-policy'
import { accountRules } from './account-rules.server'
import { hashPassword, verifyPassword } from './password-hashing.server'
import { guestIdFromCookieHeader } from './guest-cookie.server'
import { signInHooks } from './sign-in-hooks.server'
import { ssoPlugins } from './sso.server'
import { twoFactorPlugins } from './two-factor.server'
import { withUserReadsRemembered } from './user-reads.server'
import { resetRequestBudget, withResetLinksEnded } from './reset-links.server'
import { getStoreLimiter, type StoreLimiter } from '../security/rate-limit/rate-limit.server'
import { workloadCredentialRule } from './workload-credential.server'
import { runtimeScope, viewerScope } from '../data/scope'
import { log } from '../log/logger.server'

const adminPlugin = () => admin({ defaultRole: 'user', adminRoles: ['admin'] })

/** How long a password-reset link works. */
export const RESET_TOKEN_SECONDS = 30 * 60

/**
 * [R6] docs/decisions/010-admin-api-surface.md: the admin plugin gives roles, bans
 * and the server-side `auth.api.createUser` the seeding uses, but none of its HTTP
 * endpoints backs a screen of the store, so every one of them answers 404 over HTTP.
 */
export const ADMIN_HTTP_PATHS = Object.values(adminPlugin().endpoints).map((endpoint) => endpoint.path)

/**
 * better-auth owns sessions, cookies and password checks; its scrypt runs in a worker
 * pool (password-hashing.server.ts) with the same parameters and stored format.
 * [R20] email and password on for Customers and admins. [R21] no
 * password-reset or verification callbacks are registered. [R22] no social
 * providers are configured, whatever credentials the environment holds.
 */
export const APP_NAME = 'Store'

/** `limiter`: the store's (memory or Redis) unless a test gives its own. */
export function createAuth({ db, config, limiter }: { db: Db; config: Config; limiter?: StoreLimiter }) {
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
		// better-auth's own lines (a refused provider, an unexpected error) go through the store's
		// logger, redacted and with the request's id, not to the console [R13].
		// No `level` here: with one set, better-auth also sends a refused request's message to its
		// module-wide logger, which prints to the console, outside this one.
		logger: {
			log: (level, message, ...args) => log[level](args.length > 0 ? { detail: args } : {}, `[auth] ${message}`),
		},
		disabledPaths: ADMIN_HTTP_PATHS,
		trustedOrigins: config.trustedOrigins,
		// a sign-in reads its user once, not again for the ban check.
		// and a password written or a ban ends the account's reset links in its transaction [R28].
		database: withUserReadsRemembered(withResetLinksEnded(db, config.databaseProvider)),
		emailAndPassword: {
			enabled: true,
			autoSignIn: true,
			minPasswordLength: 8,
			maxPasswordLength: 128,
			// better-auth's scrypt and format, off libuv's shared pool.
			password: { hash: hashPassword, verify: verifyPassword },
			// [R21] Recovery only when the operator turned it on and mail can be sent (docs/decisions/041):
			// a single-use token for 30 minutes, every session of the account ended on reset.
			...(config.passwordRecovery
				? {
						resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
						revokeSessionsOnPasswordReset: true,
						sendResetPassword: async ({ user, token }: { user: { email: string }; token: string }) => {
							await signInHooks().resetRequested?.({ db, storeId: await runtimeStoreId(db), email: user.email, token })
						},
					}
				: {}),
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
					// Order claiming [R71]: off until Stable; proof is this browser's guestId.
					after: async (user, ctx) => {
						const hook = signInHooks().afterSignUp
						if (!hook) return
						const guestId = await guestIdFromCookieHeader(ctx?.headers?.get('cookie'))
						await hook({ scope: await runtimeScope(db), userId: user.id, guestId })
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
						const hook = signInHooks().afterSessionCreated
						if (hook && guestId && storeId) await hook({ scope: viewerScope(db, { storeId }), guestId, userId: session.userId })
					},
				},
			},
		},
		advanced: {
			// One query for a user and their accounts, or a session and its user (sign-in and
			// every signed-in page paid for two compiled Prisma queries where one does).
			database: { joins: true },
			useSecureCookies: config.authUrl.startsWith('https:'),
			ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
		},
		telemetry: { enabled: false },
		// One 429 contract: the store's own limiter fronts /api/auth/* (app/security/rate-limit/).
		rateLimit: { enabled: false },
		// OAuth callback failures land on the sign-in page, which explains them.
		onAPIError: { errorURL: `${config.appUrl}/sign-in` },
		plugins: [
			adminPlugin(),
			accountRules({ db }),
			// a few reset mails per address an hour, whoever asks [R28].
			...(config.passwordRecovery ? [resetRequestBudget(() => limiter ?? getStoreLimiter(config))] : []),
			// managed sign-in when configured.
			workloadCredentialRule(config),
			...ssoPlugins({ db, config }),
			// TOTP and backup codes; the Store's admin rule.
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
