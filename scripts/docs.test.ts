import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { definedRules, markdownHeadings, markdownLinks, trackedTextFiles } from './lib/docs'

/**
 * The docs stay true as the code moves: every link a page gives leads somewhere, every section a
 * file names exists, every variable `.env.example` offers is one the store reads (or is marked
 * inert with the rule that says so), docs/configuration.md documents each variable the code reads
 * once, and the decision records stay indexed and short. Rule citations are checked in
 * scripts/stands-alone.test.ts.
 */

const markdownPages = () => trackedTextFiles().filter((file) => file.endsWith('.md'))
const headingsOf = (file: string) => markdownHeadings(readFileSync(file, 'utf8'))

describe('links and named sections', () => {
	it('resolves every relative link of every tracked page to a file, and its anchor to a heading', () => {
		const broken: string[] = []
		let checked = 0
		for (const page of markdownPages()) {
			for (const { target, line } of markdownLinks(readFileSync(page, 'utf8'))) {
				if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
				checked++
				const [pathPart = '', anchor] = target.split('#', 2)
				const file = pathPart === '' ? page : path.join(path.dirname(page), decodeURIComponent(pathPart))
				if (!existsSync(file)) broken.push(`${page}:${line}: ${target} (no such file)`)
				else if (anchor && file.endsWith('.md') && statSync(file).isFile() && !headingsOf(file).anchors.has(decodeURIComponent(anchor)))
					broken.push(`${page}:${line}: ${target} (no heading for #${anchor})`)
			}
		}
		expect(broken).toEqual([])
		expect(checked).toBeGreaterThan(100)
	})

	it('finds every section a file names as docs/<page>.md, "<heading>"', () => {
		const missing: string[] = []
		let checked = 0
		for (const file of trackedTextFiles()) {
			for (const match of readFileSync(file, 'utf8').matchAll(/\b(docs\/[\w/.-]+\.md),? "([^"\n]+)"/g)) {
				checked++
				const [, page, heading] = match as unknown as [string, string, string]
				if (!existsSync(page) || !headingsOf(page).titles.includes(heading)) missing.push(`${file}: ${page}, "${heading}"`)
			}
		}
		expect(missing).toEqual([])
		expect(checked).toBeGreaterThan(3)
	})
})

/** The variables the store's code reads: the configuration schema's keys and every name read from `process.env`. */
function variablesRead(...folders: string[]) {
	const names = new Set<string>()
	const schema = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\)/.exec(readFileSync('app/config/env.server.ts', 'utf8'))?.[1] ?? ''
	for (const match of schema.matchAll(/^\t([A-Z][A-Z0-9_]*):/gm)) names.add(match[1]!)
	const code = trackedTextFiles(...folders).filter((file) => /\.(ts|tsx|mjs|cjs|js)$/.test(file))
	for (const file of code)
		for (const match of readFileSync(file, 'utf8').matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g))
			names.add((match[1] ?? match[2])!)
	return names
}

/** `.env.example`'s variables, each with the rule of the `# Inert [Rn]: …` block it sits in, if any. */
function exampleVariables(text: string) {
	const variables: Array<{ name: string; inertBy?: string }> = []
	let inertBy: string | undefined
	for (const line of text.split('\n')) {
		if (line.trim() === '') inertBy = undefined
		const marker = /^#\s*Inert \[(R\d+)\]/i.exec(line)
		if (marker) inertBy = marker[1]
		const variable = /^([A-Z][A-Z0-9_]*)=/.exec(line)
		if (variable) variables.push({ name: variable[1]!, inertBy })
	}
	return variables
}

describe('configuration', () => {
	const RUNTIME = ['app', 'server', 'scripts', 'prisma.config.ts', 'vite.config.ts', 'react-router.config.ts']

	it('offers in .env.example only variables the store reads, or marks them inert with the rule that says so', () => {
		const read = variablesRead(...RUNTIME)
		const rules = definedRules()
		const problems = exampleVariables(readFileSync('.env.example', 'utf8')).flatMap(({ name, inertBy }) => {
			if (!inertBy) return read.has(name) ? [] : [`${name}: never read; remove it or mark its block "# Inert [Rn]" with the rule that says so`]
			if (read.has(name)) return [`${name}: marked inert but read`]
			const rule = rules.get(inertBy)
			return rule && /\bnot read\b/i.test(rule) ? [] : [`${name}: ${inertBy} is not a rule that says these are not read`]
		})
		expect(problems).toEqual([])
		expect(exampleVariables(readFileSync('.env.example', 'utf8')).length).toBeGreaterThan(20)
	})

	it('documents every variable the code and its tests read exactly once in docs/configuration.md', () => {
		const SYSTEM = new Set(['PATH', 'HOME'])
		const read = [...variablesRead(...RUNTIME, 'tests')].filter((name) => !SYSTEM.has(name))
		const firstCells = readFileSync('docs/configuration.md', 'utf8')
			.split('\n')
			.filter((line) => line.startsWith('| ') && !line.startsWith('| Variable') && !line.startsWith('|---'))
			.map((line) => line.split('|')[1] ?? '')
		const rowsNaming = (name: string) => firstCells.filter((cell) => cell.includes(`\`${name}\``)).length
		expect(read.filter((name) => rowsNaming(name) !== 1).map((name) => `${name}: in ${rowsNaming(name)} rows`)).toEqual([])
		expect(read.length).toBeGreaterThan(40)
	})
})

describe('decision records', () => {
	const DIR = 'docs/decisions'
	const records = () => readdirSync(DIR).filter((file) => /^\d{3}-.+\.md$/.test(file))
	/** "About 400 words" of Context, Decision and Consequences (and any section beside them), headings not counted. */
	const LIMIT = 450
	const sectionWords = (text: string) =>
		text
			.slice(text.indexOf('\n## '))
			.split('\n')
			.filter((line) => !line.startsWith('#'))
			.join(' ')
			.split(/\s+/)
			.filter(Boolean).length

	it('lists every record in the index, under its own title', () => {
		const index = readFileSync(path.join(DIR, 'README.md'), 'utf8')
		const missing = records().filter((file) => {
			const title = readFileSync(path.join(DIR, file), 'utf8')
				.split('\n')[0]!
				.replace(/^# \d{3} — /, '')
			return !index.includes(`[${title}](${file})`)
		})
		expect(missing).toEqual([])
		expect(records().length).toBeGreaterThan(60)
	})

	it('keeps every record to Date, Status, Context, Decision and Consequences, about 400 words at most', () => {
		const problems = records().flatMap((file) => {
			const text = readFileSync(path.join(DIR, file), 'utf8')
			const shape = [/^# \d{3} — \S/, /^Date: \d{4}-\d{2}-\d{2}/m, /^Status: \S/m, /^## Context$/m, /^## Decision$/m, /^## Consequences$/m]
			const words = sectionWords(text)
			return [
				...(shape.every((part) => part.test(text)) ? [] : [`${file}: lacks a title, Date, Status or one of the three sections`]),
				...(words > LIMIT ? [`${file}: ${words} words`] : []),
			]
		})
		expect(problems).toEqual([])
	})
})

describe('the README', () => {
	const readme = () => readFileSync('README.md', 'utf8')

	it('opens with the two commands of a fresh machine: set up and start, then every test', () => {
		expect(readme().split('\n').slice(0, 6)).toEqual(['# Store Runtime', '', '```sh', 'npm run setup && npm start', 'npm test', '```'])
	})

	it('stays short: about 120 lines, one line a capability and a must-know, no tables of figures', () => {
		const text = readme()
		expect(text.split('\n').length).toBeLessThanOrEqual(120)
		for (const section of ['What you get today', 'Know before you use it']) {
			const body = new RegExp(`^## ${section}\\n([\\s\\S]*?)(?=^## )`, 'm').exec(text)?.[1] ?? ''
			const bullets = body.split('\n').filter((line) => line.startsWith('- '))
			expect(bullets.length, section).toBeGreaterThan(5)
			// A bullet is one line: a continuation line (indented) is a paragraph that belongs on a topic page.
			expect(
				body.split('\n').filter((line) => /^\s+\S/.test(line)),
				section,
			).toEqual([])
			expect(body, section).not.toMatch(/^\s*\|/m)
		}
	})
})
