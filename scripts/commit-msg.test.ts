import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

/** scripts/commit-msg.mjs as git runs it: a file holding the message, exit 1 and the problems on stderr. */
const work = mkdtempSync(path.join(tmpdir(), 'store-commit-msg-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function check(message: string) {
	const file = path.join(work, 'COMMIT_EDITMSG')
	writeFileSync(file, message)
	const run = spawnSync(process.execPath, ['scripts/commit-msg.mjs', file], { encoding: 'utf8' })
	return { status: run.status, problems: run.stderr }
}

const WHY = '\n\nThe body says why the change is made.\n'
// Built, not written: the repository's own files may not name a tracker number (stands-alone.test.ts).
const trackerNumber = ['issue', '63'].join(' ')

describe('the commit-msg check', () => {
	it('accepts a subject of 72 characters with a body, and ignores the lines git strips', () => {
		expect(check(`${'s'.repeat(72)}${WHY}`)).toEqual({ status: 0, problems: '' })
		expect(
			check(`\nShort subject${WHY}# Please enter the commit message…\n# ------------------------ >8 ------------------------\n${'x'.repeat(200)}\n`),
		).toEqual({
			status: 0,
			problems: '',
		})
	})

	it('refuses a subject of 73 characters, naming its length', () => {
		expect(check(`${'s'.repeat(73)}${WHY}`)).toMatchObject({ status: 1, problems: expect.stringContaining('73 characters; keep it to 72') })
	})

	it('refuses a message without a body, or with the body glued to the subject', () => {
		expect(check('A subject alone\n')).toMatchObject({ status: 1, problems: expect.stringContaining('no body') })
		expect(check('A subject\n# only a comment below\n')).toMatchObject({ status: 1, problems: expect.stringContaining('no body') })
		expect(check('A subject\nand the why on the next line\n')).toMatchObject({ status: 1, problems: expect.stringContaining('blank line') })
	})

	it('refuses an empty message and a tracker number', () => {
		expect(check('# nothing but comments\n\n')).toMatchObject({ status: 1, problems: expect.stringContaining('empty') })
		expect(check(`Fix the cart${WHY}As ${trackerNumber} asked.\n`)).toMatchObject({ status: 1, problems: expect.stringContaining('tracker number') })
	})

	it('lets merges and fixups that git writes through without a body', () => {
		expect(check("Merge branch 'docs'\n").status).toBe(0)
		expect(check('fixup! Fix the cart\n').status).toBe(0)
	})

	it('runs as the hook of .githooks when git commits', () => {
		const repo = path.join(work, 'repo')
		const git = (...args: string[]) =>
			spawnSync('git', ['-C', repo, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
				encoding: 'utf8',
				env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
			})
		expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0)
		expect(git('config', 'core.hooksPath', path.resolve('.githooks')).status).toBe(0)
		writeFileSync(path.join(repo, 'file.txt'), 'one\n')
		git('add', 'file.txt')
		const refused = git('commit', '-q', '-m', 's'.repeat(73), '-m', 'Why.')
		expect(refused.status).not.toBe(0)
		expect(refused.stderr).toContain('keep it to 72')
		expect(git('commit', '-q', '-m', 'A short subject', '-m', 'Why it is made.').status).toBe(0)
		expect(git('log', '--format=%s').stdout.trim()).toBe('A short subject')
	})
})
