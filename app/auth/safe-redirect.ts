/**
 * `redirectTo` survives sign-in but may only lead to a path on this site.
 *
 * The guarantee is a property of the OUTPUT, whatever the input [R27]: the
 * result is a same-origin path — one `/`, then neither `/` nor `\` — and it stays
 * one after every further percent-decoding and dot-segment resolution a browser,
 * proxy or router might apply. Inputs are not patched up: anything doubtful
 * (whitespace, control characters, backslashes, undecodable escapes, or a form
 * that resolves elsewhere) gives the fallback.
 */
export const DEFAULT_REDIRECT = '/'

const BASE = 'http://same-origin.invalid'
const MAX_LENGTH = 2048
// Browsers drop tabs and newlines inside URLs and trim spaces and C0 controls around
// them; a backslash is a slash in http URLs. None of these belongs in a path we emit.
const DOUBTFUL = /[\s\u0000-\u001f\u007f-\u009f\\]/u
const ONE_LEADING_SLASH = /^\/(?![/\\])/

/** `to` as a path on this site, or `fallback` (itself checked) when it is not one. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string = DEFAULT_REDIRECT): string {
	const target = typeof to === 'string' ? resolveLocal(to) : null
	if (target !== null) return target
	if (fallback === '' || isSafeLocalPath(fallback)) return fallback
	return DEFAULT_REDIRECT
}

/** Whether `path` is a same-origin path under every decoding (the output property). */
export function isSafeLocalPath(path: string): boolean {
	if (path.length > MAX_LENGTH || !ONE_LEADING_SLASH.test(path) || DOUBTFUL.test(path)) return false
	if (resolveOnBase(path) !== path) return false
	let decoded = path
	// Nested encodings (%252F…) unwrap one layer a round; more than a few layers is refused.
	for (let round = 0; round < 4; round++) {
		let next: string
		try {
			next = decodeURIComponent(decoded)
		} catch {
			return false
		}
		if (next === decoded) return true
		if (!ONE_LEADING_SLASH.test(next) || DOUBTFUL.test(next)) return false
		const resolved = resolveOnBase(next)
		if (resolved === null || !ONE_LEADING_SLASH.test(resolved)) return false
		decoded = next
	}
	return false
}

function resolveLocal(to: string): string | null {
	if (!ONE_LEADING_SLASH.test(to) || DOUBTFUL.test(to) || to.length > MAX_LENGTH) return null
	const resolved = resolveOnBase(to)
	return resolved !== null && isSafeLocalPath(resolved) ? resolved : null
}

/** The path, query and fragment `to` names on this origin, or null when it names another. */
function resolveOnBase(to: string): string | null {
	let url: URL
	try {
		url = new URL(to, BASE)
	} catch {
		return null
	}
	if (url.origin !== BASE) return null
	return url.pathname + url.search + url.hash
}

/** The sign-in URL that brings the user back to `request`'s path afterwards. */
export function signInUrlFor(request: Request): string {
	const url = new URL(request.url)
	// `.data` is the single-fetch suffix of a data request; return to the page instead.
	const path = url.pathname.replace(/\.data$/, '') || '/'
	url.searchParams.delete('_routes')
	const query = url.searchParams.toString()
	const redirectTo = safeRedirect(path + (query ? `?${query}` : ''))
	return `/sign-in?${new URLSearchParams({ redirectTo })}`
}

/** `path` carrying a `redirectTo` onward (between sign-in and sign-up), only when it is safe. */
export function withRedirect(path: string, redirectTo: string) {
	const target = safeRedirect(redirectTo, '')
	return target ? `${path}?${new URLSearchParams({ redirectTo: target })}` : path
}
