import type { BetterAuthOptions } from 'better-auth'
import { defineRequestState, hasRequestState } from '@better-auth/core/context'
import type { DBAdapter, DBTransactionAdapter, Where } from '@better-auth/core/db/adapter'

/**
 * docs/decisions/028-performance-budget.md: one read of a user per better-auth call.
 *
 * A password sign-in read the user twice: by email (with its accounts) to check the password,
 * then by id again in the admin plugin's ban check as the session is created. Each read is a
 * compiled Prisma query on the event loop (0.6–0.9 ms here, of a sign-in's ~14 ms there).
 *
 * Within one better-auth call (its request state: one endpoint call, hooks included) a user row
 * read through the adapter is remembered as the database returned it, and a later read of that
 * user by id gets the same row. It is the snapshot the call already acted on: the password was
 * checked against it. Any write to users in the call forgets every row, and nothing is
 * remembered inside a transaction (it could roll back; sign-up runs in one) or across calls.
 *
 * A ban written while a sign-in is checking the password can let that one session be created;
 * it was possible before, between the ban check and the session insert, and it gives nothing:
 * every request checks the ban again and revokes a banned user's sessions on sight
 * (account-rules.server.ts, viewer.server.ts).
 */
type Row = Record<string, unknown>

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
	const own = { ...row }
	for (const relation of Object.keys(join ?? {})) delete own[relation]
	return own
}

const USER = 'user'

async function forget() {
	;(await remembered())?.clear()
}

/** Every write to users forgets every remembered row. Used as is inside a transaction: its reads are not remembered. */
function forgettingOnWrites<O extends BetterAuthOptions>(target: DBTransactionAdapter<O>): DBTransactionAdapter<O> {
	const forgetting =
		<A extends { model: string }, R>(write: (data: A) => Promise<R>) =>
		async (data: A) => {
			if (data.model === USER) await forget()
			return write(data)
		}
	return {
		...target,
		create: forgetting(target.create) as typeof target.create,
		update: forgetting(target.update) as typeof target.update,
		updateMany: forgetting(target.updateMany),
		delete: forgetting(target.delete) as typeof target.delete,
		deleteMany: forgetting(target.deleteMany),
		consumeOne: forgetting(target.consumeOne) as typeof target.consumeOne,
		incrementOne: forgetting(target.incrementOne) as typeof target.incrementOne,
	}
}

export function rememberUserReads<O extends BetterAuthOptions>(adapter: DBAdapter<O>): DBAdapter<O> {
	return {
		...forgettingOnWrites(adapter),
		async findOne<T>(data: Parameters<DBAdapter<O>['findOne']>[0]): Promise<T | null> {
			if (data.model !== USER || data.select) return adapter.findOne<T>(data)
			const rows = await remembered()
			const id = data.join ? null : idOnly(data.where)
			const known = id ? rows?.get(id) : undefined
			if (known) return { ...known } as T
			const row = await adapter.findOne<T>(data)
			const value = row as Row | null
			if (rows && typeof value?.id === 'string') rows.set(value.id, ownFields(value, data.join))
			return row
		},
		transaction: (callback) => adapter.transaction((inner) => callback(forgettingOnWrites(inner))),
	}
}

/** better-auth's `database` option around an adapter factory such as `prismaAdapter(db)`. */
export function withUserReadsRemembered<O extends BetterAuthOptions>(factory: (options: O) => DBAdapter<O>) {
	return (options: O) => rememberUserReads(factory(options))
}
