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

/** A statement as it ran (`args`: the values it ran with, in order) and its plan, one line per node. */
export type Plan = { sql: string; args: unknown[]; plan: string[] }

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
		explained.push({ sql: text, args: args.flat(), plan: rows.map((row) => row.detail) })
	}
	return explained
}

type PgCall = { text: string; values?: unknown[] }
type PgNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PgNode[] }

/**
 * Runs `work` on a PostgreSQL database and answers PostgreSQL's plan of every statement it ran
 * that reads rows, as one line per plan node ("Seq Scan on orders", "Index Scan using … on
 * orders", "Sort"), each explained with the values it ran with on a connection of its own.
 * Sequential scans are priced out there (`enable_seqscan = off`): on a small test database the
 * planner rightly reads a few pages whole, so a scan left in a plan is one no index can replace.
 */
export async function pgPlansOf(url: string, work: () => Promise<unknown>): Promise<Plan[]> {
	const pg = createRequire(import.meta.url)('pg') as typeof import('pg')
	const ran: PgCall[] = []
	const spy = vi.spyOn(pg.Client.prototype, 'query')
	try {
		await work()
		for (const [call] of spy.mock.calls) {
			const query = call as unknown
			if (query && typeof query === 'object' && 'text' in query) ran.push(query as PgCall)
		}
	} finally {
		spy.mockRestore()
	}
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		await client.query('SET enable_seqscan = off')
		const explained: Plan[] = []
		for (const { text, values } of ran) {
			if (!/^\s*(SELECT|WITH|UPDATE|DELETE)/i.test(text)) continue
			const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PgNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values)
			const lines: string[] = []
			const walk = (node: PgNode) => {
				const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : ''
				lines.push(`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${on}`)
				for (const child of node.Plans ?? []) walk(child)
			}
			walk(result.rows[0]!['QUERY PLAN'][0]!.Plan)
			explained.push({ sql: text, args: values ?? [], plan: lines })
		}
		return explained
	} finally {
		await client.end()
	}
}
