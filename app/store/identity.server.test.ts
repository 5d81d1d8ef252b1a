/**
 * The Store's look [R120] on both engines: the logo is an upload of the Store, shown to
 * shoppers and kept from deletion while it is the logo; the accent colour and the policy pages
 * are checked before anything is saved; every change is audited and reaches the cached profile.
 * Each test file works in Stores of its own (the profile of the runtime Store is shared).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGES } from '../../tests/helpers/images'
import { PROVIDERS } from '../../tests/helpers/databases'
import { openUploadStore } from '../../tests/helpers/upload-store'
import { unverifiedScope } from '../data/scope'
import type { AdminViewer, Viewer } from '../data/viewer'
import { UploadError } from '../uploads/intake.server'
import { diskStorage } from '../uploads/storage/disk.server'
import { uploadsRepository } from '../uploads/uploads.server'
import { storeIdentityRepository, storePolicy } from './identity.server'
import { cachedStoreProfile } from './store-profile.server'

describe.each(PROVIDERS)('the Store look on %s', (provider) => {
	let mine: Awaited<ReturnType<typeof openUploadStore>>
	let theirs: Awaited<ReturnType<typeof openUploadStore>>
	let dir: string
	const db = () => mine.t.db
	const storage = () => diskStorage(dir)
	const guestOf = (admin: AdminViewer): Viewer => ({ kind: 'guest', storeId: admin.storeId, guestId: 'look-test-guest' })
	const audits = (storeId: string, action: string) => db().auditEntry.count({ where: { storeId, action } })
	const storeRow = (storeId: string) =>
		db().store.findUniqueOrThrow({ where: { id: storeId }, select: { logoKey: true, logoWidth: true, logoHeight: true, accentColor: true } })

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'store-look-'))
		mine = await openUploadStore(provider, 'look-mine')
		theirs = await openUploadStore(provider, 'look-theirs')
	})
	afterAll(async () => {
		rmSync(dir, { recursive: true, force: true })
		await mine.t.db.$disconnect()
		await theirs.t.db.$disconnect()
	})

	it('makes an upload of the Store its logo, shows it to shoppers and keeps it from deletion while it is [R120]', async () => {
		const uploads = uploadsRepository(db(), mine.admin, storage())
		const [stored] = await uploads.storeAll([IMAGES.png])
		const look = storeIdentityRepository(db(), mine.admin)
		await look.setLogo({ key: stored!.key, width: stored!.width, height: stored!.height })
		expect(await storeRow(mine.admin.storeId)).toMatchObject({ logoKey: stored!.key, logoWidth: 1, logoHeight: 1 })
		expect((await cachedStoreProfile(unverifiedScope(db(), mine.admin.storeId))).logo).toEqual({ key: stored!.key, width: 1, height: 1 })
		// Shoppers may read it: it is on every page's header.
		expect(await uploadsRepository(db(), guestOf(mine.admin), storage()).openReadable(stored!.key)).not.toBeNull()
		// A shopper of another Store may not.
		expect(await uploadsRepository(db(), guestOf(theirs.admin), storage()).openReadable(stored!.key)).toBeNull()

		const refused = await uploads.delete(stored!.key).catch((error: unknown) => error)
		expect(refused).toBeInstanceOf(UploadError)
		expect((refused as UploadError).status).toBe(409)
		expect(await db().uploadedObject.count({ where: { key: stored!.key } })).toBe(1)

		await look.removeLogo()
		expect(await storeRow(mine.admin.storeId)).toMatchObject({ logoKey: null, logoWidth: null, logoHeight: null })
		expect((await cachedStoreProfile(unverifiedScope(db(), mine.admin.storeId))).logo).toBeNull()
		expect(await uploadsRepository(db(), guestOf(mine.admin), storage()).openReadable(stored!.key)).toBeNull()
		expect(await uploads.delete(stored!.key)).toBe(true)
		expect(await audits(mine.admin.storeId, 'store.logo')).toBe(2)
	})

	it("refuses another Store's upload as the logo, changing nothing [R120]", async () => {
		const [foreign] = await uploadsRepository(db(), theirs.admin, storage()).storeAll([IMAGES.gif])
		const before = await storeRow(mine.admin.storeId)
		const auditsBefore = await audits(mine.admin.storeId, 'store.logo')
		await expect(storeIdentityRepository(db(), mine.admin).setLogo({ key: foreign!.key, width: 1, height: 1 })).rejects.toMatchObject({ status: 404 })
		expect(await storeRow(mine.admin.storeId)).toEqual(before)
		expect(await audits(mine.admin.storeId, 'store.logo')).toBe(auditsBefore)
	})

	it('saves a readable accent colour and refuses a light or malformed one with nothing changed [R120]', async () => {
		const look = storeIdentityRepository(db(), mine.admin)
		await look.setAccent('#0B6E4F')
		expect((await storeRow(mine.admin.storeId)).accentColor).toBe('#0b6e4f')
		expect((await cachedStoreProfile(unverifiedScope(db(), mine.admin.storeId))).accentColor).toBe('#0b6e4f')
		for (const bad of ['#ffff00', 'red', '#0b6e4f;}*{display:none']) {
			await expect(look.setAccent(bad), bad).rejects.toMatchObject({ status: 400, field: 'accentColor' })
		}
		expect((await storeRow(mine.admin.storeId)).accentColor).toBe('#0b6e4f')
		await look.setAccent(null)
		expect((await storeRow(mine.admin.storeId)).accentColor).toBeNull()
		expect(await audits(mine.admin.storeId, 'store.accent')).toBe(2)
	})

	it('publishes policy pages for its own Store only, and takes an emptied one down [R120]', async () => {
		const look = storeIdentityRepository(db(), mine.admin)
		await look.savePolicies({ shipping: '  We ship in two days.\n\nTracked.  ', returns: '', privacy: 'We keep what an order needs.' })
		const scope = unverifiedScope(db(), mine.admin.storeId)
		expect(await storePolicy(scope, 'shipping')).toMatchObject({ kind: 'shipping', body: 'We ship in two days.\n\nTracked.' })
		expect(await storePolicy(scope, 'returns')).toBeNull()
		expect(await storePolicy(scope, 'terms')).toBeNull()
		expect((await cachedStoreProfile(scope)).policyKinds).toEqual(['privacy', 'shipping'])
		// Another Store's shoppers do not see it.
		expect(await storePolicy(unverifiedScope(db(), theirs.admin.storeId), 'shipping')).toBeNull()
		expect((await look.look()).policies).toEqual({ shipping: 'We ship in two days.\n\nTracked.', returns: '', privacy: 'We keep what an order needs.' })

		await look.savePolicies({ shipping: 'Two days.', returns: '', privacy: ' ' })
		expect(await storePolicy(scope, 'privacy')).toBeNull()
		expect(await storePolicy(scope, 'shipping')).toMatchObject({ body: 'Two days.' })
		expect((await cachedStoreProfile(scope)).policyKinds).toEqual(['shipping'])

		await expect(look.savePolicies({ shipping: 'x'.repeat(20_001), returns: '', privacy: '' })).rejects.toMatchObject({ status: 400, field: 'shipping' })
		expect(await storePolicy(scope, 'shipping')).toMatchObject({ body: 'Two days.' })
		expect(await audits(mine.admin.storeId, 'store.policies')).toBe(2)
	})
})
