import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * Everything a newcomer needs is inside the repository: no file may send a reader to a folder
 * a clone does not have, or to a tracker number that leads nowhere. Rules are cited by their
 * number in docs/security-model.md (`[R12]`), choices by their decision record.
 */
const OUTSIDE = /\.\.\/shared|\bissues? #?\d|\bspec \d|\bspec §|\bSTYLE\.md\b/i

describe('the repository stands alone', () => {
	it('has no reference to anything outside it in any tracked file', () => {
		const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
			.split('\0')
			.filter((file) => file && !file.startsWith('prisma/sqlite/migrations/') && !file.startsWith('prisma/postgresql/migrations/'))
			.filter((file) => file !== 'scripts/stands-alone.test.ts' && !/\.(png|jpe?g|gif|webp|ico|woff2?)$/.test(file))
		const hits = files.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.flatMap((line, index) => (OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
		)
		expect(hits).toEqual([])
		expect(files.length).toBeGreaterThan(100)
	})

	it('holds no merge-conflict markers a merge left behind', () => {
		const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
			.split('\0')
			.filter((file) => file && file !== 'scripts/stands-alone.test.ts' && !/\.(png|jpe?g|gif|webp|ico|woff2?)$/.test(file))
		const marker = /^(<{7} |>{7} |={7}$)/m
		expect(files.filter((file) => marker.test(readFileSync(file, 'utf8')))).toEqual([])
	})

	it('cites only rules the security model defines', () => {
		const defined = new Set([...readFileSync('docs/security-model.md', 'utf8').matchAll(/\*\*(R\d+)\*\*/g)].map((match) => match[1]))
		const files = execFileSync('git', ['ls-files', 'app', 'tests', 'scripts', 'docs', 'README.md'], { encoding: 'utf8' }).split('\n').filter(Boolean)
		const cited = new Set(
			files.flatMap((file) =>
				[...readFileSync(file, 'utf8').matchAll(/\[(R\d+(?:[-–,\s]+R?\d+)*)\]/g)].flatMap((match) => match[1]!.match(/\d+/g)!.map((n) => `R${n}`)),
			),
		)
		expect([...cited].filter((rule) => !defined.has(rule))).toEqual([])
		expect(defined.size).toBeGreaterThan(40)
	})
})
