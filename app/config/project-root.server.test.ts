import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT, findProjectRoot } from './project-root.server'

const here = path.dirname(fileURLToPath(import.meta.url))
const scratch = mkdtempSync(path.join(tmpdir(), 'project-root-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the project folder, for files init reads wherever its code was bundled to', () => {
	it('is the folder above app/config holding package.json and prisma.config.ts', () => {
		expect(PROJECT_ROOT).toBe(path.resolve(here, '../..'))
	})

	it('is the same answer from build/, where the compiled init runs, and from scripts/lib/', () => {
		expect(findProjectRoot(path.join(PROJECT_ROOT, 'build'))).toBe(PROJECT_ROOT)
		expect(findProjectRoot(path.join(PROJECT_ROOT, 'scripts/lib'))).toBe(PROJECT_ROOT)
	})

	it('passes over a package.json without prisma.config.ts (a package inside the project)', () => {
		const project = path.join(scratch, 'shop')
		const inner = path.join(project, 'node_modules/some-package/dist')
		mkdirSync(inner, { recursive: true })
		writeFileSync(path.join(project, 'package.json'), '{}')
		writeFileSync(path.join(project, 'prisma.config.ts'), '')
		writeFileSync(path.join(inner, '..', 'package.json'), '{}')
		expect(findProjectRoot(inner)).toBe(project)
	})

	it('throws, naming where it looked, when no folder above holds both', () => {
		const lone = path.join(scratch, 'lone/deeper')
		mkdirSync(lone, { recursive: true })
		expect(() => findProjectRoot(lone)).toThrow(/no project folder .* above .*lone/)
	})
})
