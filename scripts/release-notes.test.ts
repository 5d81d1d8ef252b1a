import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CAPABILITIES } from '../app/config/capabilities'
import { RELEASES } from '../app/config/releases'
import { releasePage, releasesIndex } from './lib/release-notes'

const root = path.resolve(import.meta.dirname, '..')
const current = RELEASES.at(-1)!

describe('release guidance generated from the registry [R70] [R71]', () => {
	it('ends the release history with package.json’s version', () => {
		expect(current.version).toBe(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version)
	})

	it('commits exactly the page and index the registry generates', () => {
		expect(readFileSync(path.join(root, `docs/releases/${current.version}.md`), 'utf8')).toBe(releasePage(current, CAPABILITIES))
		expect(readFileSync(path.join(root, 'docs/releases/README.md'), 'utf8')).toBe(releasesIndex(RELEASES))
	})

	it('publishes each capability’s maturity, and Order claiming and managed isolation as not to be relied on [R71]', () => {
		const page = releasePage(current, CAPABILITIES)
		for (const c of CAPABILITIES) expect(page).toContain(`| ${c.title} |`)
		const doNotRely = page.split('## Do not rely on')[1]!.split('## Evidence')[0]!
		expect(doNotRely).toContain('Claiming guest Orders on registration** (off until Stable)')
		expect(doNotRely).toContain('Managed isolation')
	})

	it('exits 1 from --check, naming the page, when the registry changed and the page did not', () => {
		const run = (...args: string[]) =>
			spawnSync(process.execPath, ['--import', 'tsx', 'scripts/release-notes.ts', '--check', ...args], { cwd: root, encoding: 'utf8' })
		expect(run().status).toBe(0)
		// A copy of the pages as they were before a capability changed maturity.
		const stale = mkdtempSync(path.join(tmpdir(), 'release-notes-'))
		try {
			cpSync(path.join(root, 'docs/releases'), stale, { recursive: true })
			const page = path.join(stale, `${current.version}.md`)
			writeFileSync(
				page,
				readFileSync(page, 'utf8').replace('| Uploads into Store-scoped storage | Stable |', '| Uploads into Store-scoped storage | Experimental |'),
			)
			const result = run('--dir', stale)
			expect(result.status).toBe(1)
			expect(result.stderr).toContain(`${current.version}.md differs from what the registry generates`)
		} finally {
			rmSync(stale, { recursive: true, force: true })
		}
	})
})
