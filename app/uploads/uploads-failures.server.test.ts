import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectErrorLog } from '../../tests/setup/fail-on-error-log'
import { IMAGES, pngOfSize } from '../../tests/helpers/images'
import { PROVIDERS, type TestDatabase } from '../../tests/helpers/databases'
import { openUploadStore } from '../../tests/helpers/upload-store'
import { failingOnPut, filesUnder, systemError, uploadState } from '../../tests/helpers/upload-storage'
import type { AdminViewer } from '../data/viewer'
import { diskStorage } from './storage/disk.server'
import type { ObjectStorage } from './storage/storage'
import { uploadsRepository } from './uploads.server'

/**
 * A request is stored whole or not at all [R34]: a storage whose Nth write fails leaves no
 * object, no row and no upload.create entry behind, only one upload.failed entry saying what
 * happened, and the refusal is a clear 507 or 503.
 */
describe.each(PROVIDERS)('a failing upload storage on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let dir: string

	beforeAll(async () => {
		;({ t, admin } = await openUploadStore(provider, 'upload-failures'))
		dir = mkdtempSync(join(tmpdir(), 'store-upload-failures-'))
	})
	afterAll(async () => {
		await t.db.$disconnect()
		rmSync(dir, { recursive: true, force: true })
	})

	const storeWith = (storage: ObjectStorage, files: Buffer[]) => uploadsRepository(t.db, admin, storage).storeAll(files)

	it.each([
		['ENOSPC', 2, 507, 'STORAGE_FULL'],
		['EDQUOT', 3, 507, 'STORAGE_FULL'],
		['EROFS', 2, 503, 'STORAGE_UNAVAILABLE'],
		['EACCES', 1, 503, 'STORAGE_UNAVAILABLE'],
	] as const)('%s on file %i answers %i and keeps nothing of the request [R34]', async (code, n, status, errorCode) => {
		const before = await uploadState(t.db, admin.storeId)
		const storage = failingOnPut(diskStorage(dir), n, () => {
			throw systemError(code)
		})
		const error = await storeWith(storage, [IMAGES.png, pngOfSize(2048), IMAGES.gif]).catch((caught: unknown) => caught)
		expect(error).toMatchObject({ status, code: errorCode })
		expect((error as Error).message).toMatch(/nothing from this request was kept/i)

		expect(filesUnder(dir)).toEqual([])
		const after = await uploadState(t.db, admin.storeId)
		expect(after.rows).toBe(before.rows)
		expect(after.created).toBe(before.created)
		expect(after.failed.slice(before.failed.length)).toEqual([{ code: errorCode, files: 3, leftBehind: [] }])
	})

	it('an unavailable storage asks the client to come back later (Retry-After) [R34]', async () => {
		const storage = failingOnPut(diskStorage(dir), 2, () => {
			throw systemError('EPERM')
		})
		const error = await storeWith(storage, [IMAGES.png, IMAGES.png]).catch((caught: unknown) => caught)
		expect(error).toMatchObject({ status: 503, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } })
	})

	it('names the objects it could not remove, in the audit entry and the log [R34]', async () => {
		expectErrorLog(/could not remove/)
		const inner = diskStorage(dir)
		let deletesWork = true
		const storage: ObjectStorage = {
			...failingOnPut(inner, 2, () => {
				deletesWork = false
				throw systemError('EROFS')
			}),
			delete: (key) => (deletesWork ? inner.delete(key) : Promise.reject(systemError('EROFS'))),
		}
		const before = await uploadState(t.db, admin.storeId)
		await expect(storeWith(storage, [IMAGES.png, IMAGES.gif])).rejects.toMatchObject({ status: 503 })
		const [entry] = (await uploadState(t.db, admin.storeId)).failed.slice(before.failed.length)
		// The first file is on disk with no row; the second never was, but cannot be ruled out.
		expect(entry?.leftBehind).toHaveLength(2)
		const left = filesUnder(dir)
		expect(left).toHaveLength(1)
		expect(entry?.leftBehind).toContain(left[0])
		expect((await uploadState(t.db, admin.storeId)).rows).toBe(before.rows)
		for (const key of entry?.leftBehind ?? []) await inner.delete(key)
	})

	it('keeps the object and its row when the storage cannot delete it, with a clear 503 [R34]', async () => {
		const [object] = await storeWith(diskStorage(dir), [IMAGES.png])
		const refusing: ObjectStorage = {
			...diskStorage(dir),
			delete: async () => {
				throw systemError('EROFS')
			},
		}
		const error = await uploadsRepository(t.db, admin, refusing)
			.delete(object!.key)
			.catch((caught: unknown) => caught)
		expect(error).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE', headers: { 'Retry-After': '30' } })
		expect(await t.db.uploadedObject.count({ where: { key: object!.key } })).toBe(1)
		expect(filesUnder(dir).some((file) => file.endsWith(object!.key.split('/').at(-1)!))).toBe(true)
		expect(await t.db.auditEntry.count({ where: { action: 'upload.delete', detail: { contains: object!.key } } })).toBe(0)
		// Once the storage answers again the same delete completes.
		expect(await uploadsRepository(t.db, admin, diskStorage(dir)).delete(object!.key)).toBe(true)
		expect(await t.db.uploadedObject.count({ where: { key: object!.key } })).toBe(0)
	})
})
