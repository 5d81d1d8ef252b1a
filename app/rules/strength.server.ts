import { createRequire } from 'node:module'
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core'

/**
 * One strength estimator for passwords (sign-up, password change, the seeded admin)
 * and for AUTH_SECRET at production start: zxcvbn-ts with its common password list,
 * keyboard graphs and English word lists (docs/decisions/009-strength-rules.md).
 * Built on first use: the dictionaries cost ~100 ms and some memory, which a server
 * that never sees a new password does not pay.
 */
// One per process: the server entry (build/server.js) and the app build (build/server/index.js)
// both check secrets and passwords, and each estimator holds ~17 MB of ranked dictionaries.
const shared = globalThis as unknown as { storeStrengthEstimator?: ZxcvbnFactory }

/**
 * The word lists (~15 MB of heap once ranked) are loaded when an estimate is first needed and
 * given back by `releaseEstimator` (the server checks its secret at start, then may not see
 * a new password for hours). Loaded with require so a check stays synchronous.
 *
 * English is loaded list by list: its package entry also loads the surnames and word sequences,
 * which the estimator below does not use (3.7 MB of heap held beside a sign-up's scrypt memory).
 * The files are those of @zxcvbn-ts/language-en 4.x, pinned in the lockfile; the tests load them.
 */
const ENGLISH = '@zxcvbn-ts/language-en/dist'
type Lists = {
	common: typeof import('@zxcvbn-ts/language-common')
	english: { translations: (typeof import('@zxcvbn-ts/language-en'))['translations'] }
	englishLists: Record<'commonWords-en' | 'wikipedia-en' | 'firstnames-en', string[]>
}
let lists: Lists | undefined
/** The files loading the lists added to require's cache. */
let listFiles: string[] = []

function loadLists(): Lists {
	if (!lists) {
		const require = createRequire(import.meta.url)
		const cachedBefore = new Set(Object.keys(require.cache))
		const list = (name: string) => require(`${ENGLISH}/${name}.json.cjs`) as string[]
		lists = {
			common: require('@zxcvbn-ts/language-common') as Lists['common'],
			english: { translations: require(`${ENGLISH}/translations.cjs`) as Lists['english']['translations'] },
			englishLists: { 'commonWords-en': list('commonWords'), 'wikipedia-en': list('wikipedia'), 'firstnames-en': list('firstnames') },
		}
		listFiles = Object.keys(require.cache).filter((file) => !cachedBefore.has(file))
	}
	return lists
}

/**
 * Lean on purpose: the full lists with unbounded l33t matching took 0.7 s of main-thread
 * CPU for one 128-character password (a cheap denial of service on sign-up). These lists
 * with at most 4 l33t substitutions take under 50 ms in the worst case measured and still
 * catch the common list, keyboard runs, words, names and l33t spellings (P@$$w0rd!).
 */
function getEstimator() {
	if (shared.storeStrengthEstimator) return shared.storeStrengthEstimator
	const { common, english, englishLists } = loadLists()
	shared.storeStrengthEstimator = new ZxcvbnFactory({
		dictionary: {
			'passwords-common': common.dictionary['passwords-common'],
			'diceware-common': common.dictionary['diceware-common'],
			...englishLists,
		},
		graphs: common.adjacencyGraphs,
		translations: english.translations,
		l33tMaxSubstitutions: 4,
	})
	return shared.storeStrengthEstimator
}

export function estimate(value: string, userInputs: string[] = []): ZxcvbnResult {
	const result = getEstimator().check(value, userInputs.filter(Boolean))
	releaseWhenIdle()
	return result
}

let idle: ReturnType<typeof setTimeout> | undefined

/** A minute after the last estimate the dictionaries go; the next sign-up loads them again (~0.1 s). */
function releaseWhenIdle() {
	clearTimeout(idle)
	idle = setTimeout(releaseEstimator, 60_000)
	idle.unref()
}

/** zxcvbn's scale: 3 = "safely unguessable", at least 10^8 guesses (ASVS 6.2.4 / 6.2.11). */
export const MIN_PASSWORD_SCORE = 3

/**
 * Why `password` is refused, in words a person can act on, or null when it is fine.
 * `userInputs` (email, name, store name) count as known words an attacker would try first.
 */
export function passwordWeakness(password: string, userInputs: string[] = []): string | null {
	const result = estimate(password, withEmailParts(userInputs))
	if (result.score >= MIN_PASSWORD_SCORE) return null
	const why = result.feedback.warning ?? 'This password is too easy to guess.'
	const hint = result.feedback.suggestions[0] ?? 'Use a longer phrase of uncommon words.'
	return `${why} ${hint}`
}

function withEmailParts(inputs: string[]) {
	return inputs.flatMap((input) => (input.includes('@') ? [input, input.split('@')[0] ?? ''] : [input]))
}

let words: Set<string> | undefined

/** Common English words and diceware words of three letters or more, lower case. */
function wordList() {
	if (words) return words
	const { common, englishLists } = loadLists()
	words = new Set(
		[...englishLists['commonWords-en'].slice(0, 20_000), ...englishLists['wikipedia-en'].slice(0, 20_000), ...common.dictionary['diceware-common']]
			.map((word) => word.toLowerCase())
			.filter((word) => word.length >= 3 && /^[a-z]+$/.test(word)),
	)
	return words
}

/**
 * The share of `value`'s characters that a reader would see as words: the best cover
 * by dictionary words of three letters or more. Readable phrases score 0.55 and up;
 * random base64 and hex secrets stayed under 0.45 in 12,000 samples.
 */
export function readableShare(value: string): number {
	const text = value.toLowerCase()
	const dictionary = wordList()
	const best = new Array<number>(text.length + 1).fill(0)
	for (let i = text.length - 1; i >= 0; i--) {
		best[i] = best[i + 1] ?? 0
		for (let length = 3; length <= Math.min(24, text.length - i); length++) {
			if (dictionary.has(text.slice(i, i + length))) {
				best[i] = Math.max(best[i] ?? 0, length + (best[i + length] ?? 0))
			}
		}
	}
	return text.length === 0 ? 0 : (best[0] ?? 0) / text.length
}

/** Lets a one-off check (the start-up secret check) give the dictionaries back. */
export function releaseEstimator() {
	shared.storeStrengthEstimator = undefined
	words = undefined
	lists = undefined
	forgetListModules()
}

/**
 * require keeps every file it loaded in its cache, and each cached file keeps the one that first
 * required it: dropping only the packages' entries left the lists cached through the files they
 * had pulled in (~9 MB that every full collection marked for the life of the server). So every
 * file the lists brought into the cache leaves it with them.
 */
function forgetListModules() {
	const cache = createRequire(import.meta.url).cache
	for (const file of listFiles) delete cache[file]
	listFiles = []
}
