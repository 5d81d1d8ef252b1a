import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { filesUnder } from '../../../tests/helpers/upload-storage'
import { sweepTemporaryFiles } from './disk.server'

describe('temporary files a killed process left behind [R34]', () => {
	let dir = ''
	afterEach(() => rmSync(dir, { recursive: true, force: true }))

	it('removes old temporary files at any depth and keeps objects and writes still in progress', async () => {
		dir = mkdtempSync(join(tmpdir(), 'store-sweep-'))
		const folder = join(dir, 'stores', 'store-1', 'uploads')
		mkdirSync(folder, { recursive: true })
		const file = (name: string, ageMs: number) => {
			const path = join(folder, name)
			writeFileSync(path, 'x')
			const at = (Date.now() - ageMs) / 1000
			utimesSync(path, at, at)
		}
		file('a1b2.png', 5 * 3600_000)
		file('a1b2.png.0123456789ab.tmp', 2 * 3600_000)
		file('c3d4.gif.ba9876543210.tmp', 60_000)
		file('notes.tmp', 5 * 3600_000)
		expect(await sweepTemporaryFiles(dir)).toBe(1)
		expect(
			filesUnder(dir)
				.map((path) => path.split('/').at(-1))
				.sort(),
		).toEqual(['a1b2.png', 'c3d4.gif.ba9876543210.tmp', 'notes.tmp'])
	})

	it('is a no-op for a folder that does not exist yet', async () => {
		dir = join(tmpdir(), `store-sweep-missing-${process.pid}`)
		expect(await sweepTemporaryFiles(dir)).toBe(0)
	})
})
