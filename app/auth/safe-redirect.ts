/**
 * `redirectTo` survives sign-in but may only lead to a path on this site:
 * one leading slash, no `//` or `\` (browsers treat `/\evil.com` as `//evil.com`),
 * no control characters, and it must stay on our origin once resolved.
 */
export const DEFAULT_REDIRECT = '/'

export function safeRedirect(
	to: FormDataEntryValue | string | null | undefined,
	fallback: string = DEFAULT_REDIRECT,
): string {
	if (typeof to !== 'string' || to === '') return fallback
	if (!to.startsWith('/') || to.startsWith('//')) return fallback
	if (to.includes('\\') || /[\u0000-\u001f\u007f]/.test(to)) return fallback
	let decoded: string
	try {
		decoded = decodeURIComponent(to)
	} catch {
		return fallback
	}
	if (decoded.startsWith('//') || decoded.includes('\\')) return fallback
	const base = 'http://same-origin.invalid'
	const resolved = new URL(to, base)
	if (resolved.origin !== base) return fallback
	return resolved.pathname + resolved.search + resolved.hash
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
