import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from '../../server/migrate'
import { createDb } from './db.server'
import { SQLITE_BUSY_TIMEOUT_MS } from './driver-adapter.server'

describe('the SQLite connection the store opens', () => {
	const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'))
	afterAll(() => rmSync(dir, { recursive: true, force: true }))

	it('is tuned for a web server: WAL, synchronous NORMAL, and a writer waits for the lock', async () => {
		const url = `file:${join(dir, 'tuned.db')}`
		const db = createDb(url)
		try {
			const pragma = async (name: string) => Object.values((await db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0]
			expect(await pragma('journal_mode')).toBe('wal')
			// 1 is NORMAL (2 would be FULL, SQLite's default).
			expect(Number(await pragma('synchronous'))).toBe(1)
			expect(Number(await pragma('busy_timeout'))).toBe(SQLITE_BUSY_TIMEOUT_MS)
		} finally {
			await db.$disconnect()
		}
	})

	it('answers each query of the store’s client with its own rows, and a rolled-back transaction writes nothing', async () => {
		const url = `file:${join(dir, 'store.db')}`
		migrateDatabase(url, { quiet: true })
		const db = createDb(url)
		try {
			const handles = ['first', 'second', 'third']
			for (const handle of handles) await db.store.create({ data: { handle, name: handle.toUpperCase() } })
			for (const handle of [...handles, ...handles]) {
				expect(await db.store.findUnique({ where: { handle }, select: { name: true } })).toEqual({ name: handle.toUpperCase() })
			}
			await expect(
				db.$transaction(async (tx) => {
					await tx.store.update({ where: { handle: 'first' }, data: { name: 'Changed' } })
					throw new Error('roll back')
				}),
			).rejects.toThrow('roll back')
			expect(await db.store.findUnique({ where: { handle: 'first' }, select: { name: true } })).toEqual({ name: 'FIRST' })
		} finally {
			await db.$disconnect()
		}
	})
})
