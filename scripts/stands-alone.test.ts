import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { citedRules, definedRules, trackedTextFiles } from './lib/docs'

/**
 * Everything a newcomer needs is inside the repository: no file may send a reader to a folder
 * a clone does not have, or to a tracker number that leads nowhere. Rules are cited by their
 * number in docs/security-model.md (`[R12]`), choices by their decision record.
 */
const OUTSIDE = /\.\.\/shared|\bissues? #?\d|\bspec \d|\bspec §|\bSTYLE\.md\b/i
const SELF = 'scripts/stands-alone.test.ts'
const MIGRATIONS = /^prisma\/(sqlite|postgresql)\/migrations\//

describe('the repository stands alone', () => {
	it('has no reference to anything outside it in any tracked file', () => {
		const files = trackedTextFiles().filter((file) => !MIGRATIONS.test(file) && file !== SELF)
		const hits = files.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.flatMap((line, index) => (OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
		)
		expect(hits).toEqual([])
		expect(files.length).toBeGreaterThan(100)
	})

	it('holds no merge-conflict markers a merge left behind', () => {
		const marker = /^(<{7} |>{7} |={7}$)/m
		expect(trackedTextFiles().filter((file) => file !== SELF && marker.test(readFileSync(file, 'utf8')))).toEqual([])
	})

	it('cites only rules the security model defines, in every tracked file', () => {
		const defined = definedRules()
		const unknown = trackedTextFiles()
			.filter((file) => file !== SELF)
			.flatMap((file) => [...new Set(citedRules(readFileSync(file, 'utf8')))].filter((rule) => !defined.has(rule)).map((rule) => `${file}: ${rule}`))
		expect(unknown).toEqual([])
		expect(defined.size).toBeGreaterThan(40)
	})
})
