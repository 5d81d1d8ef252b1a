import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { passwordWeakness, releaseEstimator } from './strength.server'

/** Files of the word lists, and of what only they use, in require's cache. */
function cachedListFiles() {
	return Object.keys(createRequire(import.meta.url).cache).filter((file) => /@zxcvbn-ts\/(language-|dictionary-compression)/.test(file))
}

describe('password strength estimator', () => {
	it('refuses a common password and accepts a long uncommon phrase', () => {
		expect(passwordWeakness('password123')).toMatch(/\S/)
		expect(passwordWeakness('quartz lantern mosaic drifting', ['shopper@example.com'])).toBeNull()
	})

	it('gives every file of its word lists back once released, and loads them again when needed', () => {
		// As in a new process: a test worker runs several files, and one may have loaded the lists
		// through another copy of this module (vi.resetModules), which only that copy gives back.
		releaseEstimator()
		const cache = createRequire(import.meta.url).cache
		for (const file of cachedListFiles()) delete cache[file]
		passwordWeakness('warm up the lists')
		expect(cachedListFiles()).toEqual(expect.arrayContaining([expect.stringMatching(/language-common/), expect.stringMatching(/passwords/)]))
		// Only the lists the estimator ranks: not the surnames the English package's entry would load.
		expect(cachedListFiles().filter((file) => /lastnames|language-en\/dist\/index/.test(file))).toEqual([])
		releaseEstimator()
		// A file left cached keeps the lists alive through the files it required (~9 MB of heap).
		expect(cachedListFiles()).toEqual([])

		expect(passwordWeakness('password123')).toMatch(/\S/)
		expect(cachedListFiles().length).toBeGreaterThan(0)
	})
})
