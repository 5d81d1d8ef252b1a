import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from '../../scripts/lib/migrate'
import { createDb } from './db.server'
import { reuseStatements } from './driver-adapter.server'

type Connection = Parameters<typeof reuseStatements>[0] & { close(): void }
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Connection

/** A connection whose compiles are counted (by SQL text), statements reused as the store's are. */
function countedConnection(size?: number) {
	const client = new Database(':memory:')
	const compiled = new Map<string, number>()
	const prepare = client.prepare.bind(client)
	client.prepare = (source: string, ...rest: unknown[]) => {
		compiled.set(source, (compiled.get(source) ?? 0) + 1)
		return prepare(source, ...rest)
	}
	reuseStatements(client, size)
	return { client, compiled }
}

describe('reused SQLite statements', () => {
	const dir = mkdtempSync(join(tmpdir(), 'store-statements-'))
	afterAll(() => rmSync(dir, { recursive: true, force: true }))

	it('compiles a statement once and runs it with each call’s own parameters, as Prisma’s adapter calls it', () => {
		const { client, compiled } = countedConnection()
		client.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)').run()
		const insert = 'INSERT INTO t (id, name) VALUES (?, ?)'
		for (const [id, name] of [
			[1, 'one'],
			[2, 'two'],
			[3, 'three'],
		] as const) {
			client.prepare(insert).bind([id, name]).run()
		}
		const select = 'SELECT name FROM t WHERE id >= ? ORDER BY id'
		const read = (from: number) => client.prepare(select).bind([from]).raw().all()
		expect(read(2)).toEqual([['two'], ['three']])
		expect(read(3)).toEqual([['three']])
		expect(client.prepare(select).reader).toBe(true)
		expect(client.prepare(insert).reader).toBe(false)
		expect(compiled.get(insert)).toBe(1)
		expect(compiled.get(select)).toBe(1)
		client.close()
	})

	it('runs a statement without parameters (BEGIN, COMMIT) and leaves better-sqlite3’s own helpers working', () => {
		const { client } = countedConnection()
		client.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY)').run()
		client.prepare('BEGIN').run()
		client.prepare('INSERT INTO t (id) VALUES (?)').bind([7]).run()
		client.prepare('ROLLBACK').run()
		expect(client.prepare('SELECT COUNT(*) FROM t').raw().all()).toEqual([[0]])
		// pragma() prepares with arguments of its own: those get a statement of their own.
		expect(client.pragma('user_version')).toEqual([{ user_version: 0 }])
		client.close()
	})

	it('keeps at most the cache’s size of statements, dropping the oldest first', () => {
		const { client, compiled } = countedConnection(2)
		const sql = (n: number) => `SELECT ${n}`
		for (const n of [1, 2, 3, 1]) client.prepare(sql(n)).raw().all()
		expect(compiled.get(sql(1))).toBe(2)
		client.prepare(sql(3)).raw().all()
		expect(compiled.get(sql(3))).toBe(1)
		client.close()
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
