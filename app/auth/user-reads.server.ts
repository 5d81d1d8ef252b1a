import type { BetterAuthOptions } from 'better-auth'
import { defineRequestState, hasRequestState } from '@better-auth/core/context'
import type { DBAdapter, DBTransactionAdapter, Where } from '@better-auth/core/db/adapter'

/**
 * Issue 11.5, docs/decisions/028-performance-budget.md: one read of a user per better-auth call.
 *
 * A password sign-in read the user twice: by email (with its accounts) to check the password,
 * then by id again in the admin plugin's ban check as the session is created. Each read is a
 * compiled Prisma query on the event loop, about a tenth of a sign-in's main-thread time.
 *
 * Within one better-auth call (its request state: one endpoint call, hooks included) a user row
 * read or written through the adapter is remembered as the database returned it, and a later
 * read of that user by id gets the same row. It is the snapshot the call already acted on: the
 * password was checked against it. Any other write to users in the call forgets every row, and
 * nothing is remembered inside a transaction (it could roll back) or across calls.
 *
 * A ban written while a sign-in is checking the password can let that one session be created;
 * it was possible before, between the ban check and the session insert, and it gives nothing:
 * every request checks the ban again and revokes a banned user's sessions on sight
 * (account-rules.server.ts, viewer.server.ts).
 */
type Row = Record<string, unknown> & { id?: unknown }

const userRows = defineRequestState(() => new Map<string, Row>())

/** The rows of this call, or null outside a better-auth call (server-side scripts, tests). */
async function remembered(): Promise<Map<string, Row> | null> {
	return (await hasRequestState()) ? userRows.get() : null
}

function idOnly(where: Where[]): string | null {
	if (where.length !== 1) return null
	const [clause] = where
	if (!clause || clause.field !== 'id' || (clause.operator !== undefined && clause.operator !== 'eq')) return null
	return typeof clause.value === 'string' ? clause.value : null
}

/** The row without the relations a join added (`account` on a sign-in's read by email). */
function ownFields(row: Row, join: object | undefined): Row {
	if (!join) return { ...row }
	const own = { ...row }
	for (const relation of Object.keys(join)) delete own[relation]
	return own
}

const USER = 'user'

async function remember(row: unknown, join?: object) {
	const rows = await remembered()
	const value = row as Row | null
	if (rows && value && typeof value.id === 'string') rows.set(value.id, ownFields(value, join))
}

async function forget() {
	;(await remembered())?.clear()
}

/** Writes to users in a transaction forget every remembered row; its reads are not remembered. */
function inTransaction<O extends BetterAuthOptions>(trx: DBTransactionAdapter<O>): DBTransactionAdapter<O> {
	const forgetting =
		<A extends { model: string }, R>(write: (data: A) => Promise<R>) =>
		async (data: A) => {
			if (data.model === USER) await forget()
			return write(data)
		}
	return {
		...trx,
		create: forgetting(trx.create) as typeof trx.create,
		update: forgetting(trx.update) as typeof trx.update,
		updateMany: forgetting(trx.updateMany),
		delete: forgetting(trx.delete) as typeof trx.delete,
		deleteMany: forgetting(trx.deleteMany),
		consumeOne: forgetting(trx.consumeOne) as typeof trx.consumeOne,
		incrementOne: forgetting(trx.incrementOne) as typeof trx.incrementOne,
	}
}

export function rememberUserReads<O extends BetterAuthOptions>(adapter: DBAdapter<O>): DBAdapter<O> {
	const trx = inTransaction(adapter)
	return {
		...trx,
		async findOne<T>(data: Parameters<DBAdapter<O>['findOne']>[0]): Promise<T | null> {
			if (data.model !== USER || data.select) return adapter.findOne<T>(data)
			const id = data.join ? null : idOnly(data.where)
			const known = id ? (await remembered())?.get(id) : undefined
			if (known) return { ...known } as T
			const row = await adapter.findOne<T>(data)
			await remember(row, data.join)
			return row
		},
		async create<T extends Record<string, unknown>, R = T>(data: Parameters<DBAdapter<O>['create']>[0] & { data: Omit<T, 'id'> }): Promise<R> {
			if (data.model !== USER) return adapter.create<T, R>(data)
			await forget()
			const row = await adapter.create<T, R>(data)
			if (!data.select) await remember(row)
			return row
		},
		async update<T>(data: Parameters<DBAdapter<O>['update']>[0]): Promise<T | null> {
			if (data.model !== USER) return adapter.update<T>(data)
			await forget()
			const row = await adapter.update<T>(data)
			await remember(row)
			return row
		},
		transaction: (callback) => adapter.transaction((inner) => callback(inTransaction(inner))),
	}
}

/** better-auth's `database` option around an adapter factory such as `prismaAdapter(db)`. */
export function withUserReadsRemembered<O extends BetterAuthOptions>(factory: (options: O) => DBAdapter<O>) {
	return (options: O) => rememberUserReads(factory(options))
}
