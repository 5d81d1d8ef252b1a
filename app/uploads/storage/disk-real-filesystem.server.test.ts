import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectErrorLog } from '../../../tests/setup/fail-on-error-log'
import { IMAGES, multipart, pngOfSize } from '../../../tests/helpers/images'
import { PROVIDERS, type TestDatabase } from '../../../tests/helpers/databases'
import { openUploadStore } from '../../../tests/helpers/upload-store'
import { failingOnPut, filesUnder, mountTmpfs, uploadState } from '../../../tests/helpers/upload-storage'
import type { AdminViewer } from '../../data/viewer'
import { receiveFiles } from '../intake.server'
import { uploadsRepository } from '../uploads.server'
import { diskStorage } from './disk.server'

/**
 * The disk storage on a real filesystem that is really full or really read-only: a small tmpfs
 * mounted for each test (root ignores file modes, so chmod proves nothing) [R34].
 */
type Mount = ReturnType<typeof mountTmpfs>
const mounts: Mount[] = []
const mount = () => {
	const made = mountTmpfs('256k')
	mounts.push(made)
	return made
}
afterEach(() => {
	for (const made of mounts.splice(0)) made.unmount()
})

const KEY = `stores/s1/uploads/${'a'.repeat(32)}.png`

describe('the disk storage on a full filesystem', () => {
	it('fails with ENOSPC and leaves no temporary file behind [R34]', async () => {
		const full = mount()
		full.fillLeaving(16 * 1024)
		await expect(diskStorage(full.dir).put(KEY, pngOfSize(64 * 1024), 'image/png')).rejects.toMatchObject({ code: 'ENOSPC' })
		expect(filesUnder(full.dir)).toEqual(['filler.bin'])
	})
})

describe.each(PROVIDERS)('uploads on a real full or read-only filesystem, %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer

	beforeAll(async () => {
		;({ t, admin } = await openUploadStore(provider, 'upload-fs'))
	})
	afterAll(() => t.db.$disconnect())

	const repo = (dir: string) => uploadsRepository(t.db, admin, diskStorage(dir))

	it('answers 507 when the second file does not fit, and removes the first [R34]', async () => {
		const full = mount()
		full.fillLeaving(64 * 1024)
		const before = await uploadState(t.db, admin.storeId)
		await expect(repo(full.dir).storeAll([pngOfSize(16 * 1024), pngOfSize(100 * 1024)])).rejects.toMatchObject({ status: 507, code: 'STORAGE_FULL' })
		expect(filesUnder(full.dir)).toEqual(['filler.bin'])
		const after = await uploadState(t.db, admin.storeId)
		expect([after.rows, after.created]).toEqual([before.rows, before.created])
		expect(after.failed.slice(before.failed.length)).toEqual([{ code: 'STORAGE_FULL', files: 2, leftBehind: [] }])
	})

	it('answers 503 on a read-only filesystem and writes nothing [R34]', async () => {
		const readOnly = mount()
		readOnly.readOnly()
		const before = await uploadState(t.db, admin.storeId)
		const error = await repo(readOnly.dir)
			.storeAll([IMAGES.png, IMAGES.gif])
			.catch((caught: unknown) => caught)
		expect(error).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE', headers: { 'Retry-After': expect.any(String) } })
		expect(filesUnder(readOnly.dir)).toEqual([])
		expect((await uploadState(t.db, admin.storeId)).rows).toBe(before.rows)
	})

	it('answers 503 when the filesystem turns read-only mid-request, naming the file it could not remove [R34]', async () => {
		expectErrorLog(/could not remove/)
		const turning = mount()
		const storage = failingOnPut(diskStorage(turning.dir), 2, () => turning.readOnly())
		const before = await uploadState(t.db, admin.storeId)
		await expect(uploadsRepository(t.db, admin, storage).storeAll([IMAGES.png, IMAGES.gif])).rejects.toMatchObject({ status: 503 })
		const after = await uploadState(t.db, admin.storeId)
		expect(after.rows).toBe(before.rows)
		const [entry] = after.failed.slice(before.failed.length)
		const left = filesUnder(turning.dir)
		expect(left).toHaveLength(1)
		expect(entry?.leftBehind).toContain(left[0])
	})

	it('keeps nothing of a request refused for type or cut off after its first file (holds by design: files are checked before any write) [R34]', async () => {
		const folder = mount()
		const limits = { maxFileBytes: 64 * 1024, maxFiles: 3 }
		const refused = multipart([
			{ name: 'file', filename: 'a.png', body: IMAGES.png },
			{ name: 'file', filename: 'b.png', body: '<html><script>alert(1)</script>' },
		])
		const request = (body: BodyInit) =>
			new Request('http://store.test/api/upload', { method: 'POST', headers: { 'content-type': refused.contentType }, body, duplex: 'half' } as RequestInit)
		const files = await receiveFiles(request(refused.body), limits)
		await expect(repo(folder.dir).storeAll(files)).rejects.toMatchObject({ status: 415 })

		// The client goes away in the middle of the second file.
		const cut = refused.body.subarray(0, refused.body.length - 20)
		const aborted = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(cut)
				controller.error(new Error('client went away'))
			},
		})
		await expect(receiveFiles(request(aborted), limits)).rejects.toMatchObject({ status: 400 })
		expect(filesUnder(folder.dir)).toEqual([])
	})
})
