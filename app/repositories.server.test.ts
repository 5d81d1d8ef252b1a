import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin, signUpCustomer } from '../tests/helpers/databases'
import { adminRepositoriesFor, userRepositoriesFor, repositoriesFor } from './repositories.server'
import type { AdminViewer, UserViewer } from './data/viewer'

describe.each(PROVIDERS)('session-scoped repositories on %s [R30] (store isolation)', (provider) => {
	let t: TestDatabase
	let otherStore: { id: string; name: string }
	let admin: AdminViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		otherStore = await t.db.store.create({
			data: { handle: `other-${Date.now()}-${Math.random()}`, name: 'Other Store' },
			select: { id: true, name: true },
		})
		admin = (await signUpAdmin(t)).viewer
	})
	afterAll(() => t.db.$disconnect())

	it('reads the Store profile of the viewer’s Store, guest or not', async () => {
		const guest = repositoriesFor({ kind: 'guest', storeId: otherStore.id, guestId: 'g' }, t.db)
		expect(await guest.store.profile()).toEqual({ name: 'Other Store', currency: 'USD', locale: 'en-US', logo: null, accentColor: null, policyKinds: [] })
	})

	it('builds a repository when a request first uses it, once, and gives a guest or customer none of Store Admin’s [R5]', () => {
		const guest = repositoriesFor({ kind: 'guest', storeId: t.storeId, guestId: 'g' }, t.db)
		expect(Object.hasOwn(guest, 'catalog')).toBe(false)
		const catalog = guest.catalog
		expect(guest.catalog).toBe(catalog)
		expect(Object.hasOwn(guest, 'catalog')).toBe(true)
		expect(Object.hasOwn(guest, 'cart')).toBe(false)
		const customer = userRepositoriesFor({ ...admin, role: 'user' }, t.db)
		for (const repositories of [guest, customer]) {
			for (const name of ['products', 'adminOrders', 'customers', 'audit', 'reviewModeration']) expect(name in repositories).toBe(false)
		}
		expect('account' in guest).toBe(false)
		const store = adminRepositoriesFor(admin, t.db)
		expect(store.adminOrders).toBe(store.adminOrders)
		expect(Object.hasOwn(store, 'products')).toBe(false)
	})

	it('ignores a storeId slipped into the update; only the session’s Store changes [R4]', async () => {
		const update = { name: 'Renamed by admin', storeId: otherStore.id } as { name: string }
		await repositoriesFor(admin, t.db).store.updateProfile(update)
		const rows = await t.db.store.findMany({
			where: { id: { in: [t.storeId, otherStore.id] } },
			select: { id: true, name: true },
		})
		expect(rows.find((r) => r.id === t.storeId)?.name).toBe('Renamed by admin')
		expect(rows.find((r) => r.id === otherStore.id)?.name).toBe('Other Store')
	})

	it('records the admin’s profile change in the activity log, and a failed change leaves no entry', async () => {
		await repositoriesFor(admin, t.db).store.updateProfile({ name: 'Audited name' })
		const entry = await t.db.auditEntry.findFirst({
			where: { storeId: t.storeId, action: 'store.update', actorId: admin.userId },
			orderBy: { createdAt: 'desc' },
			select: { detail: true, actorEmail: true },
		})
		expect(entry).toEqual({ detail: JSON.stringify({ name: 'Audited name' }), actorEmail: admin.email })
		const ghost: AdminViewer = { ...admin, storeId: 'no-such-store' }
		await expect(repositoriesFor(ghost, t.db).store.updateProfile({ name: 'Never' })).rejects.toThrow()
		expect(await t.db.auditEntry.count({ where: { storeId: 'no-such-store' } })).toBe(0)
		expect(await t.db.auditEntry.count({ where: { detail: { contains: 'Never' } } })).toBe(0)
	})

	it('rolls the change back when its audit row cannot be written: no change goes unrecorded', async () => {
		const before = await repositoriesFor(admin, t.db).store.profile()
		// An actor the database does not know: the audit insert fails inside the transaction.
		const unknownActor: AdminViewer = { ...admin, userId: 'no-such-user' }
		await expect(repositoriesFor(unknownActor, t.db).store.updateProfile({ name: 'Unrecorded' })).rejects.toThrow()
		expect(await repositoriesFor(admin, t.db).store.profile()).toEqual(before)
	})

	it('refuses a Store profile update from a non-admin and changes nothing [R3]', async () => {
		const before = await repositoriesFor(admin, t.db).store.profile()
		const customer: UserViewer = { ...admin, role: 'user' }
		expect(() => repositoriesFor(customer, t.db).store.updateProfile({ name: 'Hijacked' })).toThrow(/Store Admin/)
		expect(await repositoriesFor(admin, t.db).store.profile()).toEqual(before)
	})

	it('ignores a userId slipped into an account update; only the session’s user changes', async () => {
		const me = await signUpCustomer(t.auth)
		const other = await signUpCustomer(t.auth)
		const viewer: UserViewer = { kind: 'user', role: 'user', storeId: t.storeId, userId: me.userId, email: me.email, name: 'Me' }
		const update = { name: 'New Name', userId: other.userId } as { name: string }
		await userRepositoriesFor(viewer, t.db).account.updateProfile(update)
		const names = await t.db.user.findMany({
			where: { id: { in: [me.userId, other.userId] } },
			select: { id: true, name: true },
		})
		expect(names.find((u) => u.id === me.userId)?.name).toBe('New Name')
		expect(names.find((u) => u.id === other.userId)?.name).toBe('Test Shopper')
	})

	it('does not reach a user of this database through a viewer scoped to another Store', async () => {
		const me = await signUpCustomer(t.auth)
		const foreign: UserViewer = { kind: 'user', role: 'user', storeId: otherStore.id, userId: me.userId, email: me.email, name: 'x' }
		await expect(userRepositoriesFor(foreign, t.db).account.profile()).rejects.toThrow()
		await expect(userRepositoriesFor(foreign, t.db).account.updateProfile({ name: 'Leak' })).rejects.toThrow()
		const row = await t.db.user.findUniqueOrThrow({ where: { id: me.userId }, select: { name: true } })
		expect(row.name).toBe('Test Shopper')
	})

	it('selects only the fields a page shows: never the password hash', async () => {
		const me = await signUpCustomer(t.auth)
		const viewer: UserViewer = { kind: 'user', role: 'user', storeId: t.storeId, userId: me.userId, email: me.email, name: 'x' }
		const profile = await userRepositoriesFor(viewer, t.db).account.profile()
		expect(Object.keys(profile).sort()).toEqual(['createdAt', 'email', 'name', 'role'])
	})
})
