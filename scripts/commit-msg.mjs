#!/usr/bin/env node
/**
 * The house rule for commit messages, as a git commit-msg hook: a subject of at most 72
 * characters, then a blank line and a body that says why; no tracker numbers (the repository
 * stands alone). Enable it once per clone with `git config core.hooksPath .githooks`.
 *
 * `node scripts/commit-msg.mjs <file>` checks the message in the file (what git passes the hook)
 * and exits 1 naming each problem. Lines git strips (comments, and everything below the scissors
 * line of `commit --verbose`) are not part of the message. Merge commits and `fixup!`/`squash!`/
 * `amend!` commits, which git or a rebase writes and which never reach main as they are, need no
 * body. Plain Node, no dependencies: the hook runs before anything else is ready.
 */
import { readFileSync } from 'node:fs'

const SUBJECT_MAX = 72

const SCISSORS = /^# -+ >8 -+$/m
const TRACKER = /\bissues? #?\d/i

/** What is wrong with a commit message, as sentences; empty when nothing is. */
function commitMessageProblems(message) {
	const lines = message
		.split(SCISSORS)[0]
		.split('\n')
		.filter((line) => !line.startsWith('#'))
		.map((line) => line.trimEnd())
	while (lines.length > 0 && lines[0] === '') lines.shift()
	const [subject = '', separator, ...rest] = lines
	if (subject === '') return ['the message is empty']
	const problems = []
	if (subject.length > SUBJECT_MAX) problems.push(`the subject is ${subject.length} characters; keep it to ${SUBJECT_MAX}`)
	if (separator !== undefined && separator !== '') problems.push('the subject is followed by text on the next line; leave a blank line before the body')
	const generated = /^(Merge |fixup! |squash! |amend! )/.test(subject)
	const body = [separator ?? '', ...rest].filter((line) => line.trim() !== '')
	if (!generated && body.length === 0) problems.push('there is no body; say why the change is made, below a blank line')
	if (TRACKER.test(lines.join('\n'))) problems.push('it names a tracker number; say the reason in words, the repository stands alone')
	return problems
}

const file = process.argv[2]
if (!file || file === '--help') {
	console.log('Usage: node scripts/commit-msg.mjs <file with the commit message>\n\nAs a hook: git config core.hooksPath .githooks')
	process.exit(file ? 0 : 1)
}
const problems = commitMessageProblems(readFileSync(file, 'utf8'))
if (problems.length > 0) {
	console.error(`commit message refused:\n${problems.map((problem) => `- ${problem}`).join('\n')}`)
	process.exit(1)
}
