/**
 * SVG is an active format: scripts, event handlers, links, external references and
 * CSS can all run or leak when the file is opened directly. Policy
 * (docs/decisions/013-uploads.md):
 * 1. refuse outright what has no business in a product image: DOCTYPE and entity
 *    declarations (entity expansion, external entities), invalid UTF-8;
 * 2. sanitise with DOMPurify's SVG profile, also removing every element and attribute
 *    that can run code, navigate, or load anything (script, foreignObject, use, image,
 *    a, animation elements, style, href, event handlers);
 * 3. refuse when anything risky REMAINS in the sanitised text (a second, independent
 *    check), or when no SVG is left. What is stored is the sanitised text.
 */
type Verdict = { ok: true; svg: string } | { ok: false; message: string }

const FORBID_TAGS = [
	'script',
	'foreignObject',
	'iframe',
	'embed',
	'object',
	'style',
	'a',
	'use',
	'image',
	'feImage',
	'animate',
	'animateMotion',
	'animateTransform',
	'set',
	'discard',
	'handler',
	'listener',
]
const FORBID_ATTR = ['href', 'xlink:href', 'formaction', 'action', 'src']

let purifier: Promise<typeof import('isomorphic-dompurify').default> | undefined

/** jsdom costs tens of megabytes: loaded on the first SVG, not at start. */
function getPurifier() {
	purifier ??= import('isomorphic-dompurify').then((module) => module.default)
	return purifier
}

export async function checkSvg(bytes: Uint8Array): Promise<Verdict> {
	const text = Buffer.from(bytes).toString('utf8')
	if (text.includes('\uFFFD')) return { ok: false, message: 'The SVG is not valid UTF-8.' }
	if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
		return { ok: false, message: 'SVG files with DOCTYPE or entity declarations are not accepted.' }
	}
	const DOMPurify = await getPurifier()
	const clean = DOMPurify.sanitize(text, {
		USE_PROFILES: { svg: true, svgFilters: true },
		FORBID_TAGS,
		FORBID_ATTR,
		// Any url(...) reference in a presentation attribute (fill="url(http://…)") leaves the file.
		ALLOW_DATA_ATTR: false,
	})
	const risk = remainingRisk(clean)
	if (risk) return { ok: false, message: `The SVG still contains ${risk} after cleaning.` }
	if (!/^\s*<svg[\s>]/i.test(clean) || !/<\/svg>\s*$/i.test(clean)) {
		return { ok: false, message: 'The file is not an SVG image.' }
	}
	return { ok: true, svg: clean }
}

const RISKS: ReadonlyArray<[RegExp, string]> = [
	[/<\s*(script|foreignobject|iframe|embed|object|use|image|feimage|a|animate\w*|set|style|handler|listener)\b/i, 'an active element'],
	[/\son[a-z]+\s*=/i, 'an event handler'],
	[/javascript:|vbscript:/i, 'a script link'],
	[/\b(xlink:)?href\s*=/i, 'a link or reference'],
	// url(#gradient) points inside the file; any other url() loads something.
	[/url\s*\(\s*(?!['"]?#[\w.-]+['"]?\s*\))/i, 'a CSS url() reference'],
	[/data:/i, 'an inline data: resource'],
	[/@import|expression\s*\(/i, 'CSS that loads or runs code'],
]

/** The first risky construct still present in `svg`, in words, or null. */
export function remainingRisk(svg: string): string | null {
	for (const [pattern, what] of RISKS) if (pattern.test(svg)) return what
	return null
}
