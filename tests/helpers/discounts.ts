import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll } from 'vitest'
import type { AdminViewer } from '../../app/data/viewer'
import type { DiscountInput } from '../../app/discounts/admin-discounts.server'
import type { DatabaseProvider } from '../../app/config/database-url'
import { type TestDatabase, openTestDatabase, signUpAdmin } from './databases'

/** Store Admin's form for a code: 10% off with no conditions, a fresh code, unless `input` says otherwise. */
export const discountInput = (input: Partial<DiscountInput> = {}): DiscountInput => ({
	code: `SAVE-${randomUUID().slice(0, 8)}`,
	kind: 'percentage',
	value: 1000,
	minimumSubtotalMinor: null,
	startsAt: null,
	endsAt: null,
	usageLimit: null,
	oncePerCustomer: false,
	active: true,
	...input,
})

/** What `promise` rejected with, or null when it resolved. */
export const caught = (promise: Promise<unknown>) =>
	promise.then(
		() => null,
		(error: unknown) => error,
	)

/**
 * The engine's shared test database and an admin of it, opened before the calling describe's
 * tests and disconnected after them; read it once they run.
 */
export function databaseWithAdmin(provider: DatabaseProvider): () => { t: TestDatabase; adminUser: AdminViewer } {
	let opened: { t: TestDatabase; adminUser: AdminViewer } | undefined
	beforeAll(async () => {
		const t = await openTestDatabase(provider)
		opened = { t, adminUser: (await signUpAdmin(t)).viewer }
	})
	afterAll(() => opened?.t.db.$disconnect())
	return () => {
		if (!opened) throw new Error('the test database has not been opened yet')
		return opened
	}
}
