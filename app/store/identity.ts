/**
 * [R120] The Store's look and its policy pages: the rules shared by Store Admin, the header and
 * /theme.css. Pure: no database, so the page and the tests read the same rules.
 */

/** The colour the stylesheet ships with (app/ui/app.css `--accent`). */
export const DEFAULT_ACCENT = '#2747c9'

/** The lightest background an accent sits on (`--wash`); white text sits on it in buttons. */
const PAGE_BACKGROUND = '#f5f7fb'

/** WCAG 2's floor for normal text: links and button labels are normal text. */
export const MIN_CONTRAST = 4.5

const HEX_COLOUR = /^#[0-9a-f]{6}$/

/** "#RRGGBB" or "#rrggbb" to lower case; anything else (names, rgb(), 3 digits, CSS) is null. */
export function normaliseAccent(value: string): string | null {
	const colour = value.trim().toLowerCase()
	return HEX_COLOUR.test(colour) ? colour : null
}

function luminance(colour: string) {
	const channel = (offset: number) => {
		const value = parseInt(colour.slice(offset, offset + 2), 16) / 255
		return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
	}
	return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG contrast ratio of two "#rrggbb" colours, 1 to 21. */
export function contrastRatio(a: string, b: string) {
	const [first, second] = [luminance(a), luminance(b)]
	return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05)
}

/**
 * An accent is accepted when links in it stay readable on the page and white button labels on
 * it: both are the contrast with the page's lightest background, since white is lighter still.
 */
export function checkAccent(value: string): { ok: true; colour: string } | { ok: false; message: string } {
	const colour = normaliseAccent(value)
	if (!colour) return { ok: false, message: 'Enter a colour as # and six hexadecimal digits, like #2747c9.' }
	const ratio = contrastRatio(colour, PAGE_BACKGROUND)
	if (ratio < MIN_CONTRAST) {
		return {
			ok: false,
			message: `That colour is too light to read: its contrast with the page is ${ratio.toFixed(1)}:1, and links and buttons need at least ${MIN_CONTRAST}:1. Choose a darker one.`,
		}
	}
	return { ok: true, colour }
}

/** The stylesheet /theme.css serves for an accepted colour: one custom property, nothing else. */
export function themeCss(colour: string) {
	return `:root{--accent:${colour}}\n`
}

export const POLICY_KINDS = ['shipping', 'returns', 'privacy'] as const
export type PolicyKind = (typeof POLICY_KINDS)[number]

export const POLICY_TITLES: Record<PolicyKind, string> = {
	shipping: 'Shipping policy',
	returns: 'Returns and refunds',
	privacy: 'Privacy policy',
}

/** Long enough for a real policy, short enough that nobody pastes a book into a row. */
export const MAX_POLICY_LENGTH = 20_000

export function isPolicyKind(value: string): value is PolicyKind {
	return (POLICY_KINDS as readonly string[]).includes(value)
}

/** A policy's text as paragraphs: blank lines separate them; a single line break stays a line break. */
export function policyParagraphs(body: string): string[][] {
	return body
		.replace(/\r\n?/g, '\n')
		.split(/\n\s*\n/)
		.map((paragraph) => paragraph.split('\n').map((line) => line.trimEnd()))
		.map((lines) => lines.filter((line, index) => line !== '' || index > 0))
		.filter((lines) => lines.some((line) => line.trim() !== ''))
}
