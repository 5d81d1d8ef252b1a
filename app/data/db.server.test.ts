import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../../tests/helpers/databases'
import { isUniqueViolation } from './unique-violation'

describe.each(PROVIDERS)('the database client on %s', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(() => t.db.$disconnect())

	it('fails a query with Prisma’s code and cause, and no code frame of the source that called it [R13]', async () => {
		const store = await t.db.store.findUniqueOrThrow({ where: { id: t.storeId }, select: { handle: true } })
		const error = await t.db.store.create({ data: { handle: store.handle, name: 'Twin' } }).then(
			() => undefined,
			(caught: Error & { code?: string }) => caught,
		)
		if (!error) throw new Error('a second Store with the same handle was created')
		expect(error.code).toBe('P2002')
		expect(isUniqueViolation(error, 'handle')).toBe(true)
		expect(error.message).toContain('Unique constraint failed')
		// Prisma's other error formats capture a stack trace on every query to print the calling
		// file and its lines ("invocation in\n/path/file.ts:12:3", "→ 12 …") into the message.
		expect(error.message).not.toMatch(/invocation in\s|→|db\.server\.test/)
	})
})
