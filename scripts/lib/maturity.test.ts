import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CAPABILITIES, type Capability } from '../../app/config/capabilities'
import { judgeMaturity, keyOf, type Outcomes, readPlaywright, readVitest } from './maturity'

const root = path.resolve(import.meta.dirname, '../..')

const stable = (proof: Capability['proof']): Capability => ({ id: 'widgets', title: 'Widgets', rules: ['R70'], maturity: 'stable', offered: true, proof })
const A = { file: 'app/widgets.test.ts', title: 'makes a widget [R70]' }
const B = { file: 'tests/e2e/widgets.spec.ts', title: 'a shopper sees a widget' }
const outcomes = (entries: Array<[{ file: string; title: string }, Array<'passed' | 'failed' | 'skipped'>]>): Outcomes =>
	new Map(entries.map(([p, seen]) => [keyOf(p.file, p.title), seen]))

describe('maturity earned from evidence [R70]', () => {
	it('accepts a Stable capability whose every proof test passed in this run', () => {
		expect(
			judgeMaturity(
				[stable([A, B])],
				outcomes([
					[A, ['passed']],
					[B, ['passed', 'passed']],
				]),
			),
		).toEqual([])
	})

	it('refuses a Stable capability whose proof is missing, skipped or failing, or that names none', () => {
		expect(judgeMaturity([stable([A, B])], outcomes([[A, ['passed']]]))).toEqual([`widgets is Stable but its proof did not run: ${keyOf(B.file, B.title)}`])
		expect(judgeMaturity([stable([A])], outcomes([[A, ['skipped']]]))).toEqual([`widgets is Stable but its proof was skipped: ${keyOf(A.file, A.title)}`])
		// Passed on one engine and failed on the other is not evidence.
		expect(judgeMaturity([stable([A])], outcomes([[A, ['passed', 'failed']]]))).toEqual([
			`widgets is Stable but its proof was failed: ${keyOf(A.file, A.title)}`,
		])
		expect(judgeMaturity([stable([])], new Map())).toEqual(['widgets is Stable but names no proof test'])
	})

	it('asks nothing of an Experimental capability', () => {
		expect(judgeMaturity([{ ...stable([A]), maturity: 'experimental' }], new Map())).toEqual([])
	})

	it('reads the runners’ own JSON reports: vitest per file and title, Playwright per spec and project', () => {
		const read = readVitest(
			{
				testResults: [
					{
						name: path.join(root, A.file),
						assertionResults: [
							{ title: A.title, status: 'passed' },
							{ title: 'later', status: 'skipped' },
						],
					},
				],
			},
			root,
		)
		readPlaywright(
			{
				config: { rootDir: path.join(root, 'tests/e2e') },
				suites: [
					{
						title: 'widgets.spec.ts',
						specs: [],
						suites: [
							{
								title: 'a group',
								specs: [
									{
										title: B.title,
										file: 'widgets.spec.ts',
										tests: [
											{ status: 'expected', results: [{ status: 'passed' }] },
											{ status: 'flaky', results: [{ status: 'failed' }, { status: 'passed' }] },
										],
									},
								],
							},
						],
					},
				],
			},
			root,
			read,
		)
		expect(read.get(keyOf(A.file, A.title))).toEqual(['passed'])
		expect(read.get(keyOf(A.file, 'later'))).toEqual(['skipped'])
		expect(read.get(keyOf(B.file, B.title))).toEqual(['passed', 'failed'])
	})

	it('names, for each Stable capability, proof tests that exist in their files under exactly that title', () => {
		const stableOnes = CAPABILITIES.filter((c) => c.maturity === 'stable')
		expect(stableOnes.length).toBeGreaterThan(0)
		for (const capability of CAPABILITIES) {
			for (const { file, title } of capability.proof) {
				const source = readFileSync(path.join(root, file), 'utf8')
				expect(source.includes(`'${title}'`) || source.includes(`"${title}"`) || source.includes(`\`${title}\``), `${capability.id}: ${file} › ${title}`).toBe(
					true,
				)
			}
		}
	})

	it('cites only rules that exist in docs/security-model.md', () => {
		const model = readFileSync(path.join(root, 'docs/security-model.md'), 'utf8')
		for (const capability of CAPABILITIES) for (const rule of capability.rules) expect(model, `${capability.id}: ${rule}`).toContain(`**${rule}**`)
	})
})
