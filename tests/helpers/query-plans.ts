import { createRequire } from 'node:module'
import { vi } from 'vitest'
import type { Db } from '../../app/data/db.server'

type Statement = { source: string }
type StatementMethods = Record<'all' | 'get' | 'run' | 'iterate' | 'bind', (...args: unknown[]) => unknown>
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { prepare(sql: string): StatementMethods; close(): void }
/** The prototype of better-sqlite3's statements, which Prisma's SQLite adapter runs every query through. */
const statementPrototype = (() => {
	const memory = new Database(':memory:')
	try {
		return Object.getPrototypeOf(memory.prepare('SELECT 1')) as StatementMethods
	} finally {
		memory.close()
	}
})()

export type Plan = { sql: string; plan: string[] }

/**
 * Runs `work` on a SQLite database and answers SQLite's query plan of every statement it ran
 * that reads rows (SELECT, or a write with a WHERE), each explained with the arguments it ran with.
 */
export async function plansOf(db: Db, work: () => Promise<unknown>): Promise<Plan[]> {
	const ran: Array<{ sql: string; args: unknown[] }> = []
	// Each call is recorded with the statement it ran on (its `this`) and its arguments: those it
	// was called with, or those bound to it first (Prisma's adapter binds, then runs).
	const bind = vi.spyOn(statementPrototype, 'bind')
	const spies = (['all', 'get', 'run', 'iterate'] as const).map((method) => vi.spyOn(statementPrototype, method))
	try {
		await work()
		const bound = new Map<unknown, unknown[]>()
		bind.mock.contexts.forEach((statement, i) => bound.set(statement, bind.mock.calls[i] ?? []))
		for (const spy of spies) {
			spy.mock.contexts.forEach((statement, i) => {
				const args = spy.mock.calls[i] ?? []
				ran.push({ sql: (statement as Statement).source, args: args.length > 0 ? args : (bound.get(statement) ?? []) })
			})
		}
	} finally {
		bind.mockRestore()
		for (const spy of spies) spy.mockRestore()
	}
	const explained: Plan[] = []
	for (const { sql: text, args } of ran) {
		if (!/^\s*(SELECT|WITH|UPDATE|DELETE|INSERT[\s\S]*\bSELECT\b)/i.test(text)) continue
		const rows = await db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${text}`, ...args.flat())
		explained.push({ sql: text, plan: rows.map((row) => row.detail) })
	}
	return explained
}
