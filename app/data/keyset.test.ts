import { describe, expect, it } from 'vitest'
import { keysetPage, type Cursor } from './keyset'

/** A list of `count` rows keyed 1..count, read as an index would: from a key, either way. */
function listOf(count: number) {
	const keys = Array.from({ length: count }, (_, i) => i + 1)
	const reads: Array<{ from: string | null; direction: string; take: number }> = []
	const read = async (from: string | null, direction: 'older' | 'newer', take: number) => {
		reads.push({ from, direction, take })
		const older = keys.filter((k) => from === null || k < Number(from)).reverse()
		return direction === 'older' ? older.slice(0, take) : keys.filter((k) => k > Number(from)).slice(0, take)
	}
	const page = (cursor: Cursor, size = 3) => keysetPage({ cursor, size, read, keyOf: String })
	return { page, reads }
}

describe('keyset pages (a deep page read from its key, never by skipping) [R142]', () => {
	it('walks the whole list by its "Older" links, each row once, newest first', async () => {
		const { page } = listOf(10)
		const seen: number[] = []
		let cursor: Cursor = null
		for (let visits = 0; visits < 10; visits++) {
			const shown = await page(cursor)
			seen.push(...shown.rows)
			if (shown.older === null) break
			cursor = { before: shown.older }
		}
		expect(seen).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
	})

	it('gives the newest page no "Newer" link and a deep page both', async () => {
		const { page } = listOf(10)
		expect(await page(null)).toEqual({ rows: [10, 9, 8], newer: null, older: '8' })
		expect(await page({ before: '8' })).toEqual({ rows: [7, 6, 5], newer: '7', older: '5' })
		expect(await page({ before: '2' })).toEqual({ rows: [1], newer: '1', older: null })
	})

	it('has no "Older" link when the list ends exactly at the page', async () => {
		const { page } = listOf(6)
		expect(await page({ before: '4' })).toEqual({ rows: [3, 2, 1], newer: '3', older: null })
		expect(await page(null, 6)).toEqual({ rows: [6, 5, 4, 3, 2, 1], newer: null, older: null })
	})

	it('goes back by "Newer" to the same pages it came down by', async () => {
		const { page } = listOf(10)
		expect(await page({ after: '4' })).toEqual({ rows: [7, 6, 5], newer: '7', older: '5' })
		// Fewer than a page above the key: the newest page, whole, not a short page at the top.
		expect(await page({ after: '8' })).toEqual({ rows: [10, 9, 8], newer: null, older: '8' })
		expect(await page({ after: '99' })).toEqual({ rows: [10, 9, 8], newer: null, older: '8' })
	})

	it('answers a key past the end with an empty page that leads back, and an empty list with none', async () => {
		const { page } = listOf(10)
		expect(await page({ before: '1' })).toEqual({ rows: [], newer: '1', older: null })
		expect(await listOf(0).page(null)).toEqual({ rows: [], newer: null, older: null })
	})

	it('reads one row more than the page from the key, whatever the depth', async () => {
		const { page, reads } = listOf(1000)
		await page({ before: '40' }, 20)
		await page({ after: '40' }, 20)
		expect(reads).toEqual([
			{ from: '40', direction: 'older', take: 21 },
			{ from: '40', direction: 'newer', take: 21 },
		])
	})
})
