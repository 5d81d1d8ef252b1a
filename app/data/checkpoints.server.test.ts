import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SERVING_AUTOCHECKPOINT_PAGES, startCheckpoints } from './checkpoints.server'
import { createDb, type Db } from './db.server'

const dir = mkdtempSync(join(tmpdir(), 'store-checkpoints-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
/** A fresh SQLite database (WAL, as the store opens it) with a table of 4 KB rows: one page each, and its file. */
async function database(): Promise<{ db: Db; file: string }> {
	const file = join(dir, `db-${++files}.db`)
	const db = createDb(`file:${file}`)
	await db.$executeRawUnsafe('CREATE TABLE rows (id INTEGER PRIMARY KEY, body BLOB NOT NULL)')
	return { db, file }
}
/** Writes `pages` rows of a page each, a hundred a transaction, as commits would. */
async function write(db: Db, pages: number) {
	for (let done = 0; done < pages; done += 100) {
		await db.$transaction(async (tx) => {
			for (let i = 0; i < 100; i++) await tx.$executeRawUnsafe('INSERT INTO rows (body) VALUES (randomblob(4000))')
		})
	}
}
const walPages = (file: string) => statSync(`${file}-wal`).size / 4096
const autocheckpoint = async (db: Db) =>
	Number((await db.$queryRawUnsafe<Array<{ wal_autocheckpoint: bigint }>>('PRAGMA wal_autocheckpoint'))[0]?.wal_autocheckpoint)

describe('checkpoints in a thread of their own (SQLite)', () => {
	it('leaves the write-ahead log to the thread: the connection serving requests does not copy it back at 1,000 pages', async () => {
		const { db, file } = await database()
		const failures: string[] = []
		// A thread that would run only after a minute: every page written stays in the log.
		const checkpoints = await startCheckpoints(db, file, { everyMs: 60_000, onFailure: (m) => failures.push(m) })
		try {
			expect(await autocheckpoint(db)).toBe(SERVING_AUTOCHECKPOINT_PAGES)
			await write(db, 1_500)
			// SQLite's default would have copied it back and reused the log from its start near 1,000 pages.
			expect(walPages(file)).toBeGreaterThan(1_500)
		} finally {
			await checkpoints.stop()
			await db.$disconnect()
		}
		expect(failures).toEqual([])
	})

	it('copies every committed page back into the database file from its own connection', async () => {
		const { db, file } = await database()
		const passes: Array<{ log: number; checkpointed: number }> = []
		const checkpoints = await startCheckpoints(db, file, { everyMs: 20, onFailure: () => {}, onCheckpoint: (pass) => passes.push(pass) })
		try {
			await write(db, 300)
			await expect.poll(() => passes.some(({ log, checkpointed }) => log >= 300 && checkpointed === log), { timeout: 5_000 }).toBe(true)
			expect(await db.$queryRawUnsafe('SELECT COUNT(*) AS n FROM rows')).toEqual([{ n: 300n }])
		} finally {
			await checkpoints.stop()
			await db.$disconnect()
		}
	})

	it('stops once, with the serving connection checkpointing itself again as SQLite does by default', async () => {
		const { db, file } = await database()
		const checkpoints = await startCheckpoints(db, file, { everyMs: 20, onFailure: () => {} })
		await Promise.all([checkpoints.stop(), checkpoints.stop()])
		await checkpoints.stop()
		expect(await autocheckpoint(db)).toBe(1000)
		await db.$disconnect()
	})

	it('reports a thread that cannot open the database, and the serving connection checkpoints itself again', async () => {
		const { db } = await database()
		const failures: string[] = []
		const checkpoints = await startCheckpoints(db, join(dir, 'missing.db'), { everyMs: 20, onFailure: (m) => failures.push(m) })
		try {
			await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(1)
			expect(failures[0]).toMatch(/^SQLITE_CANTOPEN: unable to open database file/)
			await expect.poll(() => autocheckpoint(db)).toBe(1000)
		} finally {
			await checkpoints.stop()
			await db.$disconnect()
		}
	})
})
