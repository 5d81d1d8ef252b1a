/**
 * The upload folder fills up, then turns read-only, under a running store [R34]: the API
 * answers 507 and 503 (with Retry-After) in the one JSON error shape, nothing of a refused
 * request is kept (no row, no file, no temporary file), and uploads work again as soon as the
 * disk does, without a restart. A real filesystem: a small tmpfs of the suite's own.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreProcess, startStoreProcess } from '../e2e/support/store-process'
import { multipart, pngOfSize } from '../helpers/images'
import { Guest } from '../helpers/shopper'
import { mountTmpfs } from '../helpers/upload-storage'
import { expectUploadsWhole, figures, prepareDatabase } from './support'

describe('a full, then read-only, upload disk [R34]', () => {
	let folder: ReturnType<typeof mountTmpfs>
	let dataFolder: ReturnType<typeof mountTmpfs>
	let store: StoreProcess
	let database: Awaited<ReturnType<typeof prepareDatabase>>
	const admin = () => new Guest(store.origin)

	beforeAll(async () => {
		folder = mountTmpfs('512k')
		dataFolder = mountTmpfs('64m')
		const url = `file:${join(dataFolder.dir, 'store.db')}`
		database = await prepareDatabase(url)
		store = await startStoreProcess({ databaseUrl: url, env: { E2E_DEMO: '0', UPLOAD_DIR: folder.dir } })
	})
	afterAll(async () => {
		await store?.stop()
		await database?.db.$disconnect()
		folder?.unmount()
		dataFolder?.unmount()
	})

	async function upload(as: Guest) {
		const { body, contentType } = multipart([
			{ name: 'file', filename: 'small.png', body: pngOfSize(16 * 1024) },
			{ name: 'file', filename: 'large.png', body: pngOfSize(100 * 1024) },
		])
		return fetch(`${store.origin}/api/upload`, { method: 'POST', headers: { cookie: as.cookie, origin: store.origin, 'content-type': contentType }, body })
	}
	const rows = () => database.db.uploadedObject.count({ where: { storeId: database.storeId } })

	it('507 when full, 503 when read-only, nothing kept, and uploads work again without a restart', async () => {
		const as = admin()
		expect((await as.send('/sign-in', { email: store.admin.email, password: store.admin.password, redirectTo: '' })).status).toBe(302)
		expect((await upload(as)).status).toBe(201)
		expect(await rows()).toBe(2)

		folder.fillLeaving(64 * 1024)
		const full = await upload(as)
		expect(full.status).toBe(507)
		expect(await full.json()).toEqual({ code: 'STORAGE_FULL', message: expect.any(String) })
		expect(await rows()).toBe(2)
		await expectUploadsWhole(database.db, database.storeId, folder.dir)

		rmSync(join(folder.dir, 'filler.bin'))
		const afterFull = await upload(as)
		expect(afterFull.status).toBe(201)
		expect(await rows()).toBe(4)

		folder.readOnly()
		let readOnly: Response
		try {
			readOnly = await upload(as)
		} finally {
			folder.readWrite()
		}
		expect(readOnly.status).toBe(503)
		expect(readOnly.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(await readOnly.json()).toEqual({ code: 'STORAGE_UNAVAILABLE', message: expect.any(String) })
		expect(await rows()).toBe(4)

		expect((await upload(as)).status).toBe(201)
		const kept = await expectUploadsWhole(database.db, database.storeId, folder.dir)
		expect(kept).toBe(6)
		// Every stored object is served back whole.
		const keys = await database.db.uploadedObject.findMany({ where: { storeId: database.storeId }, select: { key: true, byteSize: true } })
		for (const { key, byteSize } of keys) {
			const served = await fetch(`${store.origin}/media/${key}`, { headers: { cookie: as.cookie } })
			expect(served.status, key).toBe(200)
			expect((await served.arrayBuffer()).byteLength, key).toBe(byteSize)
		}
		figures('uploads-disk', { rows: kept })
	})
})
