/**
 * The layer section of docs/architecture.md, written from the lint config's own tables
 * (eslint.config.js: `elements`, `allowed`, `declaredAcross`), so the page says what lint
 * enforces and nothing else. `npm run docs:architecture` writes it; scripts/architecture.test.ts
 * fails when the page and the config disagree.
 */
import { allowed, declaredAcross, elements } from '../../eslint.config.js'

export const START = '<!-- layers: written by `npm run docs:architecture` from eslint.config.js; edit the config, not this section -->'
export const END = '<!-- layers: end -->'

const where = (pattern: string | string[]) => (Array.isArray(pattern) ? pattern : [pattern]).map((p) => `\`${p.replaceAll('|', '\\|')}\``).join(', ')

/** The generated section, markers included. */
export function layersSection(): string {
	const rows = elements.map(({ type, pattern, what }) => {
		const targets = (allowed as Record<string, string[]>)[type] ?? []
		const others = targets.filter((target) => target !== type)
		const own = type === 'domain' ? 'its own concern' : type === 'module' ? 'its own folder' : targets.includes(type) ? 'itself' : null
		const may = [...(own ? [own] : []), ...others].join(', ') || 'nothing of the store'
		return `| ${type} | ${where(pattern)} | ${what} | ${may} |`
	})
	const across = declaredAcross.map(({ from, to, why }) => `- ${from} → ${to}: ${why}.`)
	return [
		START,
		'Every file of `app/`, `server/` and `scripts/` (tests aside) belongs to one layer; a file of',
		'none, or an import, re-export, dynamic import or `require()` that the last column does not',
		'allow, fails `npm run lint`. The first layer a file matches is its own.',
		'',
		'| Layer | Where | What it is | May import |',
		'|---|---|---|---|',
		...rows,
		'',
		`One concern imports another only where the two cannot be separated (${declaredAcross.length} places); everything else`,
		'between concerns goes through a parameter or a signal (`app/data/signals.server.ts`):',
		...across,
		END,
	].join('\n')
}

/** The page with its layer section replaced by `section`. */
export function withSection(page: string, section: string): string {
	const start = page.indexOf(START)
	const end = page.indexOf(END)
	if (start < 0 || end < start) throw new Error('docs/architecture.md has no layer section (its two markers)')
	return page.slice(0, start) + section + page.slice(end + END.length)
}
