import { BodyTooLargeError, MAX_FORM_BYTES, readBodyWithin } from '../security/form.server'
import { jsonError } from '../errors.server'
import { countSignInAttempt } from '../security/rate-limit/account.server'
import { type Auth, getAuth } from './auth.server'
import { type Config, getConfig } from '../config/env.server'
import { unknownProviderRoute } from './sso.server'
import { bodyCarriesSecret, refusalResponse, refusedSecrets } from './workload-credential.server'

/** The email of a sign-in body (JSON or form-encoded), for the per-account limit. */
function emailOf(body: Uint8Array) {
	const text = Buffer.from(body).toString('utf8')
	try {
		const parsed = JSON.parse(text) as { email?: unknown }
		if (typeof parsed?.email === 'string') return parsed.email
	} catch {
		// Not JSON: better-auth also takes form-encoded sign-ins.
	}
	return new URLSearchParams(text).get('email') ?? ''
}

/** The same cap as the store's own forms: every better-auth request body is a few small fields. */
export const MAX_AUTH_BODY_BYTES = MAX_FORM_BYTES

/**
 * Hands a request to better-auth after the store's own checks [R43, R6]:
 * - the admin plugin's HTTP surface answers 404 however the path is spelled (better-auth's
 *   `disabledPaths` covers the canonical spelling; this covers case and repeated slashes);
 * - the body is read here, within MAX_AUTH_BODY_BYTES, before better-auth sees a byte of
 *   it; an oversize or endless body gets 413 and better-auth never runs.
 */
export async function handleAuthRequest(request: Request, auth: Auth = getAuth(), config: Config = getConfig()): Promise<Response> {
	const path = new URL(request.url).pathname.toLowerCase().replace(/\/{2,}/g, '/')
	if (path === '/api/auth/admin' || path.startsWith('/api/auth/admin/')) {
		return jsonError(404, 'NOT_FOUND', 'Not found')
	}
	// an OAuth callback exists only for the enabled managed provider [R22, R24].
	if (unknownProviderRoute(path, config)) return jsonError(404, 'NOT_FOUND', 'Not found')
	if (request.method === 'GET' || request.method === 'HEAD') return auth.handler(request)

	let body: Uint8Array
	try {
		body = await readBodyWithin(request, MAX_AUTH_BODY_BYTES)
	} catch (error) {
		if (error instanceof BodyTooLargeError) {
			return jsonError(413, 'PAYLOAD_TOO_LARGE', `Request bodies here are limited to ${MAX_AUTH_BODY_BYTES} bytes.`)
		}
		throw error
	}
	// the workload credential (or the OAuth client secret) is never a password or a token.
	if (bodyCarriesSecret(body, refusedSecrets(config))) return refusalResponse()
	const headers = new Headers(request.headers)
	headers.delete('content-length')
	const forward = () => auth.handler(new Request(request.url, { method: request.method, headers, body: Buffer.from(body), signal: request.signal }))
	if (path !== '/api/auth/sign-in/email') return forward()
	// The sign-in form's budgets [R53, R55]; a success clears them and marks this client's device.
	const attempt = await countSignInAttempt(emailOf(body), request)
	if (attempt.refused) {
		const { status, code, message, headers: limitHeaders } = attempt.refused
		return jsonError(status, code, message, limitHeaders)
	}
	const response = await forward()
	if (!response.ok) return response
	const answered = new Headers(response.headers)
	answered.append('Set-Cookie', await attempt.succeeded())
	return new Response(response.body, { status: response.status, statusText: response.statusText, headers: answered })
}
