import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import type { Config } from '../config/env.server'
import { errorBody, jsonError } from '../errors.server'

/**
 * The workload credential (SVC_WORKLOAD_CREDENTIAL, [R24]) is for machine workloads
 * only: it never authenticates a person and never creates a session. Presented to the store
 * in any form — a bearer token, a cookie, a query value, a password, an OAuth client secret —
 * the request is refused before a route or better-auth runs, and nothing about it is logged.
 * The OAuth client secret is treated the same: a browser never has a reason to send it.
 * docs/decisions/026-workload-credential.md.
 */
export const WORKLOAD_CREDENTIAL_REFUSED = 'WORKLOAD_CREDENTIAL_REFUSED'
const MESSAGE = 'This credential is for machine workloads and cannot sign anyone in.'

/** Secrets no request may carry. Values shorter than 8 characters would match by accident; config refuses nothing there, so skip them. */
export function refusedSecrets(config: Pick<Config, 'workloadCredential' | 'managedSignIn'>): string[] {
	return [config.workloadCredential, config.managedSignIn.clientSecret].filter((value): value is string => typeof value === 'string' && value.length >= 8)
}

function decoded(value: string) {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '))
	} catch {
		return value
	}
}

/** Whether any of `values` carries one of `secrets` (as is, or URL-encoded). */
export function carriesSecret(values: Iterable<string>, secrets: readonly string[]) {
	if (secrets.length === 0) return false
	for (const value of values) {
		if (!value) continue
		const plain = decoded(value)
		for (const secret of secrets) if (value.includes(secret) || plain.includes(secret)) return true
	}
	return false
}

/** Every string in a parsed body, however deeply nested. */
function* stringsOf(value: unknown, depth = 0): Generator<string> {
	if (depth > 8) return
	if (typeof value === 'string') yield value
	else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item, depth + 1)
	else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item, depth + 1)
}

export function refusalResponse() {
	return jsonError(401, WORKLOAD_CREDENTIAL_REFUSED, MESSAGE)
}

/** Express, before every route: headers (Authorization, Cookie, anything) and the URL. */
export function workloadCredentialGuard(config: Pick<Config, 'workloadCredential' | 'managedSignIn'>) {
	const secrets = refusedSecrets(config)
	return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
		if (secrets.length === 0) return next()
		const headerValues = Object.values(req.headers).flatMap((v) => (Array.isArray(v) ? v : v ? [v] : []))
		if (!carriesSecret([req.originalUrl, ...headerValues], secrets)) return next()
		res.status(401).set('Cache-Control', 'no-store').json(errorBody(WORKLOAD_CREDENTIAL_REFUSED, MESSAGE))
	}
}

/** Whether a raw request body (JSON or form-encoded) carries a refused secret. */
export function bodyCarriesSecret(body: Uint8Array, secrets: readonly string[]) {
	return carriesSecret([Buffer.from(body).toString('utf8')], secrets)
}

/**
 * Inside better-auth, for calls that do not pass through Express: the pages' own
 * `auth.api.*` calls (a password typed into the sign-in form) and direct handler use.
 */
export function workloadCredentialRule(config: Pick<Config, 'workloadCredential' | 'managedSignIn'>) {
	const secrets = refusedSecrets(config)
	return {
		id: 'store-workload-credential',
		hooks: {
			before: [
				{
					matcher: () => secrets.length > 0,
					handler: createAuthMiddleware(async (ctx) => {
						const headerValues: string[] = []
						ctx.headers?.forEach((value) => headerValues.push(value))
						if (carriesSecret([...stringsOf(ctx.body), ...stringsOf(ctx.query), ...headerValues], secrets)) {
							throw new APIError('UNAUTHORIZED', { code: WORKLOAD_CREDENTIAL_REFUSED, message: MESSAGE })
						}
					}),
				},
			],
		},
	} satisfies BetterAuthPlugin
}
