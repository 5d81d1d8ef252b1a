import { describe, expect, it } from 'vitest'
import { isDatabaseUnreachable } from './outage.server'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('an unreachable database, told from a refused query [R124]', () => {
	it('recognises refused, reset and timed-out connections, Prisma’s connection codes, PostgreSQL’s class 08 and shutdown, SQLite’s lock and I/O [R124]', () => {
		for (const code of [
			'ECONNREFUSED',
			'ECONNRESET',
			'ETIMEDOUT',
			'P1001',
			'P1017',
			'P2024',
			'08006',
			'57P01',
			'57P03',
			'SQLITE_BUSY',
			'SQLITE_IOERR_READ',
			'SQLITE_CANTOPEN',
		]) {
			expect(isDatabaseUnreachable(withCode(code)), code).toBe(true)
		}
		expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true)
		expect(isDatabaseUnreachable(Object.assign(new Error('driver'), { cause: { kind: 'DatabaseNotReachable' } }))).toBe(true)
		expect(isDatabaseUnreachable(Object.assign(new Error('wrapped'), { cause: withCode('ECONNREFUSED') }))).toBe(true)
		expect(isDatabaseUnreachable(new AggregateError([withCode('ECONNREFUSED')], 'all addresses failed'))).toBe(true)
	})

	it('leaves a query the database refused, a programmer error and anything odd as what they are [R124]', () => {
		for (const code of ['P2002', 'P2025', '23505', '40001', 'SQLITE_CONSTRAINT_UNIQUE', 'ERR_INVALID_ARG_TYPE']) {
			expect(isDatabaseUnreachable(withCode(code)), code).toBe(false)
		}
		for (const odd of [
			null,
			undefined,
			'ECONNREFUSED',
			42,
			{},
			{ code: 1001 },
			{ message: 17 },
			[withCode('ECONNREFUSED')],
			new TypeError('x is not a function'),
		]) {
			expect(isDatabaseUnreachable(odd)).toBe(false)
		}
		// A cause chain that loops is not followed forever.
		const loop: { code?: string; cause?: unknown } = { code: 'P2002' }
		loop.cause = loop
		expect(isDatabaseUnreachable(loop)).toBe(false)
	})
})
