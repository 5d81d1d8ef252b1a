import { runWithRequestState } from '@better-auth/core/context'
import type { DBAdapter, DBTransactionAdapter } from '@better-auth/core/db/adapter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import { parseConfig } from '../config/env.server'
import type { Db } from '../data/db.server'
import { type Auth, createAuth } from './auth.server'
import { rememberUserReads } from './user-reads.server'

const PASSWORD = 'correct horse battery'

describe.each(PROVIDERS)('a sign-in reads its user once on %s', (provider) => {
	let t: TestDatabase
	let counted: Auth
	let userReads = 0

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		// The same database behind a client that counts the reads of users by any path.
		const db = t.db.$extends({
			query: {
				user: {
					async $allOperations({ operation, args, query }) {
						if (operation.startsWith('find')) userReads += 1
						return query(args)
					},
				},
			},
		}) as unknown as Db
		counted = createAuth({ db, config: parseConfig({ NODE_ENV: 'test', DATABASE_URL: t.url }) })
	})
	afterAll(() => t.db.$disconnect())

	const signIn = (email: string) => counted.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true })

	it('checks the password and the ban on one read of the user (sign-in cost)', async () => {
		const { userId, email } = await signUpCustomer(t.auth)
		const sessions = await t.db.session.count({ where: { userId } })
		userReads = 0
		const { response } = await signIn(email)
		expect(response.user.id).toBe(userId)
		expect(userReads).toBe(1)
		expect(await t.db.session.count({ where: { userId } })).toBe(sessions + 1)
	})

	it('refuses a banned user the right password and creates no session [R20]', async () => {
		const { userId, email } = await signUpCustomer(t.auth)
		await t.db.user.update({ where: { id: userId }, data: { banned: true, banReason: 'test' } })
		const sessions = await t.db.session.count({ where: { userId } })
		await expect(signIn(email)).rejects.toMatchObject({ statusCode: 403, body: { code: 'BANNED_USER' } })
		expect(await t.db.session.count({ where: { userId } })).toBe(sessions)
	})

	it('remembers nothing from one call to the next: a ban between two sign-ins refuses the second [R20]', async () => {
		const { userId, email } = await signUpCustomer(t.auth)
		await signIn(email)
		await t.db.user.update({ where: { id: userId }, data: { banned: true } })
		await expect(signIn(email)).rejects.toMatchObject({ statusCode: 403 })
	})

	it('lets a ban that has expired sign in and lifts it, as the admin plugin does', async () => {
		const { userId, email } = await signUpCustomer(t.auth)
		await t.db.user.update({ where: { id: userId }, data: { banned: true, banExpires: new Date(Date.now() - 1000) } })
		const { response } = await signIn(email)
		expect(response.user.id).toBe(userId)
		expect(await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { banned: true } })).toEqual({ banned: false })
	})
})

/** An adapter over one in-memory row per id, counting the reads that reach it. */
function fakeAdapter(rows: Record<string, Record<string, unknown>>) {
	const reads: string[] = []
	const write = async ({ where, update }: { where: { value: unknown }[]; update: Record<string, unknown> }) => {
		const id = String(where[0]?.value)
		rows[id] = { ...rows[id], ...update }
		return rows[id] ?? null
	}
	const adapter = {
		id: 'fake',
		findOne: async ({ where, join }: { where: { field: string; value: unknown }[]; join?: object }) => {
			reads.push(`${where[0]?.field}=${String(where[0]?.value)}`)
			const row = Object.values(rows).find((candidate) => candidate[where[0]?.field ?? ''] === where[0]?.value)
			return row ? { ...row, ...(join ? { account: [{ id: 'a1' }] } : {}) } : null
		},
		update: write,
		updateMany: async (data: Parameters<typeof write>[0]) => (await write(data), 1),
		transaction: async <R>(callback: (trx: DBTransactionAdapter) => Promise<R>) => callback(adapter as unknown as DBTransactionAdapter),
	}
	return { adapter: rememberUserReads(adapter as unknown as DBAdapter), reads }
}

const inOneCall = <T>(fn: () => Promise<T>) => runWithRequestState(new WeakMap(), fn)
const byId = (id: string) => ({ model: 'user', where: [{ field: 'id', value: id }] })
const byEmail = { model: 'user', where: [{ field: 'email', value: 'a@example.com' }], join: { account: true } }

describe('the remembered user rows', () => {
	it('answers a read by id from the row read by email in the same call, without the joined accounts', async () => {
		const { adapter, reads } = fakeAdapter({ u1: { id: 'u1', email: 'a@example.com', banned: false } })
		const [first, second] = await inOneCall(async () => [await adapter.findOne(byEmail), await adapter.findOne(byId('u1'))])
		expect(first).toMatchObject({ id: 'u1', account: [{ id: 'a1' }] })
		expect(second).toEqual({ id: 'u1', email: 'a@example.com', banned: false })
		expect(reads).toEqual(['email=a@example.com'])
	})

	it('reads the database again in another call, and outside any call', async () => {
		const { adapter, reads } = fakeAdapter({ u1: { id: 'u1', email: 'a@example.com' } })
		await inOneCall(() => adapter.findOne(byId('u1')))
		await inOneCall(() => adapter.findOne(byId('u1')))
		await adapter.findOne(byId('u1'))
		await adapter.findOne(byId('u1'))
		expect(reads).toHaveLength(4)
	})

	it('forgets on a write to users, and sees the written row (a ban written in the call)', async () => {
		const { adapter, reads } = fakeAdapter({ u1: { id: 'u1', email: 'a@example.com', banned: false } })
		const after = await inOneCall(async () => {
			await adapter.findOne(byId('u1'))
			await adapter.updateMany({ model: 'user', where: [{ field: 'id', value: 'u1' }], update: { banned: true } })
			return adapter.findOne(byId('u1'))
		})
		expect(after).toMatchObject({ banned: true })
		expect(reads).toHaveLength(2)
	})

	it('forgets on a write inside a transaction and remembers none of its reads (it could roll back)', async () => {
		const { adapter, reads } = fakeAdapter({ u1: { id: 'u1', email: 'a@example.com', banned: false } })
		const after = await inOneCall(async () => {
			await adapter.findOne(byId('u1'))
			await adapter.transaction(async (trx) => {
				await trx.findOne(byId('u1'))
				await trx.update({ model: 'user', where: [{ field: 'id', value: 'u1' }], update: { banned: true } })
			})
			await adapter.findOne(byId('u1'))
			return adapter.findOne(byId('u1'))
		})
		expect(after).toMatchObject({ banned: true })
		// The first read, the transaction's own, the first after it; the last one is remembered.
		expect(reads).toHaveLength(3)
	})

	it('never answers a read with a select or by another field from memory', async () => {
		const { adapter, reads } = fakeAdapter({ u1: { id: 'u1', email: 'a@example.com' } })
		await inOneCall(async () => {
			await adapter.findOne(byId('u1'))
			await adapter.findOne({ ...byId('u1'), select: ['id'] })
			await adapter.findOne({ model: 'user', where: [{ field: 'email', value: 'a@example.com' }] })
			await adapter.findOne({ model: 'user', where: [{ field: 'id', value: 'u1', operator: 'ne' }] })
		})
		expect(reads).toHaveLength(4)
	})
})
