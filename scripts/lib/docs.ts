/**
 * What the documentation tests read (scripts/stands-alone.test.ts, scripts/docs.test.ts): the
 * tracked files, the rules docs/security-model.md defines and the ones a text cites, and the
 * links and headings of a Markdown page.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const BINARY = /\.(png|jpe?g|gif|webp|avif|ico|woff2?)$/

/** Tracked text files, from the repository root, optionally under the given paths. */
export function trackedTextFiles(...paths: string[]): string[] {
	return execFileSync('git', ['ls-files', '-z', '--', ...paths], { encoding: 'utf8' })
		.split('\0')
		.filter((file) => file && !BINARY.test(file))
}

/** Every rule number a text cites: `[R12]`, `[R60-R65]` (both ends), `[R5, R23]`. */
export function citedRules(text: string): string[] {
	return [...text.matchAll(/\[(R\d+(?:[-–,\s]+R?\d+)*)\]/g)].flatMap((match) => match[1]!.match(/\d+/g)!.map((n) => `R${n}`))
}

/** The rules the security model defines (`- **R12** …`), with their text. */
export function definedRules(model = readFileSync('docs/security-model.md', 'utf8')): Map<string, string> {
	const rules = new Map<string, string>()
	for (const match of model.matchAll(/^- \*\*(R\d+)\*\*([\s\S]*?)(?=^- \*\*R\d+\*\*|^#|(?![\s\S]))/gm))
		rules.set(match[1]!, match[2]!.replace(/\s+/g, ' ').trim())
	return rules
}

/** Markdown without its fenced code blocks and inline code, where links and headings are not. */
function prose(markdown: string) {
	return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** The targets of a page's inline and reference links, with their line numbers. */
export function markdownLinks(markdown: string): Array<{ target: string; line: number }> {
	const links: Array<{ target: string; line: number }> = []
	prose(markdown)
		.split('\n')
		.forEach((text, index) => {
			for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 })
			const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text)
			if (reference) links.push({ target: reference[1]!, line: index + 1 })
		})
	return links
}

/** The anchor GitHub gives a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string) {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-')
}

/** A page's headings as written (inline code kept as text) and their anchors, repeats numbered as GitHub numbers them. */
export function markdownHeadings(markdown: string): { titles: string[]; anchors: Set<string> } {
	const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
	const titles = [...withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) => match[1]!.replace(/`/g, ''))
	const seen = new Map<string, number>()
	const anchors = new Set<string>()
	for (const title of titles) {
		const slug = headingSlug(title)
		const count = seen.get(slug) ?? 0
		anchors.add(count === 0 ? slug : `${slug}-${count}`)
		seen.set(slug, count + 1)
	}
	return { titles, anchors }
}
