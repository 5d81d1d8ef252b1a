/**
 * Maturity earned from evidence [R70]: a capability marked Stable in app/config/capabilities.ts
 * must have each of its proof tests present and passed in this very test run. The evidence is
 * what the runners wrote (vitest's and Playwright's JSON reports), never a hand-kept list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Capability } from '../../app/config/capabilities'

export type Outcome = 'passed' | 'failed' | 'skipped'
/** Every outcome each test had in the run, keyed by `file › title` (a test may run on more than one engine). */
export type Outcomes = Map<string, Outcome[]>

export const keyOf = (file: string, title: string) => `${file} › ${title}`

function add(outcomes: Outcomes, file: string, title: string, outcome: Outcome) {
	const key = keyOf(file.split(path.sep).join('/'), title)
	outcomes.set(key, [...(outcomes.get(key) ?? []), outcome])
}

type VitestReport = { testResults?: Array<{ name: string; assertionResults?: Array<{ title: string; status: string }> }> }

/** vitest's JSON reporter: one entry per file (absolute path), one assertion result per test. */
export function readVitest(report: VitestReport, root: string, outcomes: Outcomes = new Map()) {
	for (const file of report.testResults ?? []) {
		for (const test of file.assertionResults ?? []) {
			const outcome: Outcome = test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped'
			add(outcomes, path.relative(root, file.name), test.title, outcome)
		}
	}
	return outcomes
}

type PlaywrightSuite = {
	title: string
	suites?: PlaywrightSuite[]
	specs?: Array<{ title: string; file: string; tests: Array<{ status: string; results?: Array<{ status: string }> }> }>
}
type PlaywrightReport = { config?: { rootDir?: string }; suites?: PlaywrightSuite[] }

/** Playwright's JSON reporter: specs nested in describe suites, one test per project that ran the spec. */
export function readPlaywright(report: PlaywrightReport, root: string, outcomes: Outcomes = new Map()) {
	const testDir = report.config?.rootDir ?? root
	const walk = (suite: PlaywrightSuite) => {
		for (const spec of suite.specs ?? []) {
			for (const test of spec.tests) {
				const last = test.results?.at(-1)?.status
				// A retried test that passed the second time is flaky: not evidence.
				const outcome: Outcome = test.status === 'skipped' ? 'skipped' : test.status === 'expected' && last === 'passed' ? 'passed' : 'failed'
				add(outcomes, path.relative(root, path.join(testDir, spec.file)), spec.title, outcome)
			}
		}
		for (const child of suite.suites ?? []) walk(child)
	}
	for (const suite of report.suites ?? []) walk(suite)
	return outcomes
}

/** Every JSON report `npm test` wrote into `dir`: vitest.json, faults.json and playwright-<engine>.json. */
export function readReports(dir: string, root: string) {
	const outcomes: Outcomes = new Map()
	const reports: string[] = []
	if (!existsSync(dir)) return { outcomes, reports }
	for (const name of readdirSync(dir).sort()) {
		if (!name.endsWith('.json')) continue
		const report = JSON.parse(readFileSync(path.join(dir, name), 'utf8'))
		if (name.startsWith('playwright')) readPlaywright(report, root, outcomes)
		else readVitest(report, root, outcomes)
		reports.push(name)
	}
	return { outcomes, reports }
}

/** What is wrong with the registry given this run's outcomes: nothing when every Stable capability earned it. */
export function judgeMaturity(capabilities: readonly Capability[], outcomes: Outcomes): string[] {
	const problems: string[] = []
	for (const capability of capabilities) {
		if (capability.maturity !== 'stable') continue
		if (capability.proof.length === 0) problems.push(`${capability.id} is Stable but names no proof test`)
		for (const { file, title } of capability.proof) {
			const seen = outcomes.get(keyOf(file, title))
			if (!seen || seen.length === 0) problems.push(`${capability.id} is Stable but its proof did not run: ${keyOf(file, title)}`)
			else if (!seen.every((outcome) => outcome === 'passed'))
				problems.push(`${capability.id} is Stable but its proof was ${seen.find((o) => o !== 'passed')}: ${keyOf(file, title)}`)
		}
	}
	return problems
}
