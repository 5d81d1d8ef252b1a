import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGES, multipart, pngOfSize } from '../../tests/helpers/images'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase, signUpAdmin } from '../../tests/helpers/databases'
import type { AdminViewer, UserViewer } from '../data/viewer'
import { receiveFiles, receiveForm, UploadError } from './intake.server'
import { diskStorage } from './storage/disk.server'
import { s3Storage } from './storage/s3.server'
import type { ObjectStorage } from './storage/storage'
import { uploadsRepository } from './uploads.server'

const LIMITS = { maxFileBytes: 64 * 1024, maxFiles: 3 }

function uploadRequest(body: BodyInit, contentType: string, headers: Record<string, string> = {}) {
	return new Request('http://store.test/api/upload', {
		method: 'POST',
		headers: { 'content-type': contentType, ...headers },
		body,
		duplex: 'half',
	} as RequestInit)
}

async function refusal(promise: Promise<unknown>) {
	try {
		await promise
	} catch (error) {
		if (error instanceof UploadError) return { status: error.status, code: error.code }
		throw error
	}
	return 'accepted'
}

describe('multipart intake [R34, R43] (upload size limits)', () => {
	it('takes every part named file', async () => {
		const { body, contentType } = multipart([
			{ name: 'file', filename: 'a.png', type: 'image/png', body: IMAGES.png },
			{ name: 'file', filename: 'b.gif', body: IMAGES.gif },
		])
		const files = await receiveFiles(uploadRequest(body, contentType), LIMITS)
		expect(files.map((f) => f.length)).toEqual([IMAGES.png.length, IMAGES.gif.length])
	})

	it('cuts off a file over the per-file limit with 413', async () => {
		const { body, contentType } = multipart([{ name: 'file', filename: 'big.png', body: pngOfSize(LIMITS.maxFileBytes + 1) }])
		expect(await refusal(receiveFiles(uploadRequest(body, contentType), LIMITS))).toEqual({ status: 413, code: 'FILE_TOO_LARGE' })
	})

	it('takes exactly as many files as allowed, and one file when one is allowed', async () => {
		const parts = Array.from({ length: LIMITS.maxFiles }, () => ({ name: 'file', filename: 'x.png', body: IMAGES.png }))
		const { body, contentType } = multipart(parts)
		expect(await receiveFiles(uploadRequest(body, contentType), LIMITS)).toHaveLength(LIMITS.maxFiles)
		const one = multipart([{ name: 'file', filename: 'logo.png', body: IMAGES.png }])
		expect(await receiveFiles(uploadRequest(one.body, one.contentType), { ...LIMITS, maxFiles: 1 })).toHaveLength(1)
		const two = multipart([
			{ name: 'file', filename: 'a.png', body: IMAGES.png },
			{ name: 'file', filename: 'b.png', body: IMAGES.png },
		])
		expect(await refusal(receiveFiles(uploadRequest(two.body, two.contentType), { ...LIMITS, maxFiles: 1 }))).toMatchObject({
			status: 413,
			code: 'TOO_MANY_FILES',
		})
	})

	it('refuses more files than allowed with 413', async () => {
		const parts = Array.from({ length: LIMITS.maxFiles + 1 }, () => ({ name: 'file', filename: 'x.png', body: IMAGES.png }))
		const { body, contentType } = multipart(parts)
		expect(await refusal(receiveFiles(uploadRequest(body, contentType), LIMITS))).toMatchObject({ status: 413, code: 'TOO_MANY_FILES' })
	})

	it('refuses a declared length over the request limit before reading', async () => {
		const { contentType } = multipart([{ name: 'file', body: IMAGES.png }])
		const lying = uploadRequest('x', contentType, { 'content-length': String(200 * 1024 * 1024) })
		expect(await refusal(receiveFiles(lying, LIMITS))).toMatchObject({ status: 413 })
	})

	it('cuts an endless body off at the limit without holding it (no Content-Length)', async () => {
		const { contentType } = multipart([])
		const boundary = contentType.split('boundary=')[1]
		let produced = 0
		const endless = new ReadableStream<Uint8Array>({
			pull(controller) {
				const chunk =
					produced === 0 ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\n`) : Buffer.alloc(16 * 1024, 7)
				produced += chunk.length
				controller.enqueue(chunk)
			},
		})
		expect(await refusal(receiveFiles(uploadRequest(endless, contentType), LIMITS))).toMatchObject({ status: 413 })
		// It stopped pulling soon after the limit, rather than reading on.
		expect(produced).toBeLessThan(LIMITS.maxFiles * (LIMITS.maxFileBytes + 64 * 1024) + 1024 * 1024)
	})

	it('refuses a storeId or any other field in the body with 400 [R4]', async () => {
		for (const name of ['storeId', 'userId', 'key']) {
			const { body, contentType } = multipart([
				{ name, body: 'other' },
				{ name: 'file', filename: 'a.png', body: IMAGES.png },
			])
			expect(await refusal(receiveFiles(uploadRequest(body, contentType), LIMITS)), name).toMatchObject({ status: 400, code: 'UNEXPECTED_FIELD' })
		}
		const { body, contentType } = multipart([{ name: 'image', filename: 'a.png', body: IMAGES.png }])
		expect(await refusal(receiveFiles(uploadRequest(body, contentType), LIMITS))).toMatchObject({ status: 400, code: 'UNEXPECTED_PART' })
	})

	it('reads a form of fields and files (the new product’s), skipping a file input left empty, within its field limits [R34, R43]', async () => {
		const limits = { ...LIMITS, maxFields: 3, maxFieldBytes: 16 }
		const { body, contentType } = multipart([
			{ name: 'title', body: 'Mug' },
			{ name: 'file', filename: 'a.png', type: 'image/png', body: IMAGES.png },
			{ name: 'file', filename: '', type: 'application/octet-stream', body: '' },
			{ name: 'slug', body: 'mug' },
		])
		const form = await receiveForm(uploadRequest(body, contentType), limits)
		expect(form.fields).toEqual([
			['title', 'Mug'],
			['slug', 'mug'],
		])
		expect(form.files.map((file) => file.equals(IMAGES.png))).toEqual([true])
		const long = multipart([{ name: 'title', body: 'x'.repeat(17) }])
		expect(await refusal(receiveForm(uploadRequest(long.body, long.contentType), limits))).toEqual({ status: 413, code: 'FIELD_TOO_LARGE' })
		const many = multipart(['a', 'b', 'c', 'd'].map((name) => ({ name, body: '1' })))
		expect(await refusal(receiveForm(uploadRequest(many.body, many.contentType), limits))).toEqual({ status: 413, code: 'TOO_MANY_FIELDS' })
		const image = multipart([{ name: 'photo', filename: 'a.png', body: IMAGES.png }])
		expect(await refusal(receiveForm(uploadRequest(image.body, image.contentType), limits))).toMatchObject({ status: 400, code: 'UNEXPECTED_PART' })
	})

	it('answers 415 to a body that is not multipart, and 400 to one with no file', async () => {
		expect(await refusal(receiveFiles(uploadRequest('{}', 'application/json'), LIMITS))).toMatchObject({ status: 415 })
		const { body, contentType } = multipart([])
		expect(await refusal(receiveFiles(uploadRequest(body, contentType), LIMITS))).toMatchObject({ status: 400, code: 'NO_FILES' })
		expect(await refusal(receiveFiles(uploadRequest('garbage', 'multipart/form-data; boundary=zzz'), LIMITS))).toMatchObject({ status: 400 })
	})
})

type Backend = { name: string; storage: ObjectStorage; close: () => Promise<void> }

async function startBackends(): Promise<Backend[]> {
	const diskDir = mkdtempSync(join(tmpdir(), 'store-uploads-'))
	const s3Dir = mkdtempSync(join(tmpdir(), 'store-s3rver-'))
	const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'store-uploads', configs: [] }] })
	const address = (await server.run()) as { port: number }
	return [
		{ name: 'disk', storage: diskStorage(diskDir), close: async () => rmSync(diskDir, { recursive: true, force: true }) },
		{
			name: 's3',
			storage: s3Storage({
				bucket: 'store-uploads',
				endpoint: `http://127.0.0.1:${address.port}`,
				region: 'us-east-1',
				accessKeyId: 'S3RVER',
				secretAccessKey: 'S3RVER',
				forcePathStyle: true,
			}),
			close: async () => {
				await server.close()
				rmSync(s3Dir, { recursive: true, force: true })
			},
		},
	]
}

const backends = await startBackends()
afterAll(async () => {
	for (const backend of backends) await backend.close()
})

describe.each(PROVIDERS)('uploads on %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	let otherAdmin: AdminViewer
	let customer: UserViewer

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		const other = await anotherStore(t.db)
		admin = (await signUpAdmin(t)).viewer
		otherAdmin = { ...admin, storeId: other.id }
		customer = { ...admin, role: 'user' }
	})
	afterAll(() => t.db.$disconnect())

	describe.each(backends.map((b) => [b.name, b] as const))('in %s storage', (_name, backend) => {
		const repo = (viewer: AdminViewer | UserViewer) => uploadsRepository(t.db, viewer, backend.storage)

		it('stores each allowed type under a generated, Store-scoped key, with an audit row [R34]', async () => {
			const stored = await repo(admin).storeAll(Object.values(IMAGES))
			expect(stored.map((s) => s.contentType)).toEqual(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif', 'image/svg+xml'])
			for (const object of stored) {
				expect(object.key).toMatch(new RegExp(`^stores/${t.storeId}/uploads/[0-9a-f]{32}\\.(png|gif|jpg|webp|avif|svg)$`))
				expect(object.url).toBe(`/media/${object.key}`)
				const row = await t.db.uploadedObject.findUniqueOrThrow({ where: { key: object.key }, select: { id: true, storeId: true } })
				expect(row.storeId).toBe(t.storeId)
				expect(await t.db.auditEntry.count({ where: { targetId: row.id, action: 'upload.create', actorId: admin.userId } })).toBe(1)
			}
			const opened = await repo(admin).openReadable(stored[0]!.key)
			expect(opened?.contentType).toBe('image/png')
		})

		it('decides the type from the bytes: HTML named .png is refused and nothing is stored', async () => {
			// This admin's uploads only: other test files upload to the shared database meanwhile.
			const mine = () => t.db.uploadedObject.count({ where: { uploadedBy: admin.userId } })
			const before = await mine()
			const html = Buffer.from('<!doctype html><script>alert(1)</script>')
			await expect(repo(admin).storeAll([IMAGES.png, html])).rejects.toMatchObject({ status: 415, code: 'UNSUPPORTED_TYPE' })
			expect(await mine()).toBe(before)
		})

		it('stores a polyglot only as the image its bytes start with, served as that type', async () => {
			const polyglot = Buffer.concat([IMAGES.gif, Buffer.from('<script>alert(1)</script><html>')])
			const [object] = await repo(admin).storeAll([polyglot])
			expect(object?.contentType).toBe('image/gif')
			const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n')
			await expect(repo(admin).storeAll([pdf])).rejects.toMatchObject({ status: 415 })
		})

		it('stores a clean SVG sanitised and refuses a hostile one', async () => {
			const [object] = await repo(admin).storeAll([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>')])
			const opened = await repo(admin).openReadable(object!.key)
			const body = await text(opened!.body as never)
			expect(body).toContain('<rect')
			expect(body).not.toContain('onload')
			await expect(
				repo(admin).storeAll([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/x)"/></svg>')]),
			).rejects.toMatchObject({ status: 415, code: 'RISKY_SVG' })
		})

		it('never opens or deletes another Store’s object, whatever the key says [R33]', async () => {
			const [mine] = await repo(admin).storeAll([IMAGES.png])
			const [theirs] = await uploadsRepository(t.db, otherAdmin, backend.storage).storeAll([IMAGES.png])
			expect(theirs!.key).toContain(otherAdmin.storeId)
			expect(await repo(admin).openReadable(theirs!.key)).toBeNull()
			expect(await repo(admin).delete(theirs!.key)).toBe(false)
			expect(await uploadsRepository(t.db, otherAdmin, backend.storage).openReadable(theirs!.key)).not.toBeNull()
			// A guessed key in this Store's own prefix opens nothing either.
			expect(await repo(admin).openReadable(`stores/${t.storeId}/uploads/${'0'.repeat(32)}.png`)).toBeNull()
			expect(await repo(admin).openReadable(mine!.key)).not.toBeNull()
		})

		it('lets only admins read an object no active Product shows, and refuses non-admin writes', async () => {
			const [object] = await repo(admin).storeAll([IMAGES.png])
			expect(await repo(customer).openReadable(object!.key)).toBeNull()
			expect(await uploadsRepository(t.db, { kind: 'guest', storeId: t.storeId, guestId: 'g' }, backend.storage).openReadable(object!.key)).toBeNull()
			await expect(repo(customer).storeAll([IMAGES.png])).rejects.toThrow(/Store Admin/)
			await expect(repo(customer).delete(object!.key)).rejects.toThrow(/Store Admin/)
		})

		it('lets shoppers read an image only while an active Product of the Store shows it', async () => {
			const [object] = await repo(admin).storeAll([IMAGES.png])
			const guest = uploadsRepository(t.db, { kind: 'guest', storeId: t.storeId, guestId: 'g' }, backend.storage)
			const product = await t.db.product.create({
				data: {
					storeId: t.storeId,
					slug: `img-${Date.now()}-${Math.random().toString(16).slice(2)}`,
					title: 'Pictured',
					priceMinor: 100,
					status: 'draft',
					imageKey: object!.key,
				},
			})
			expect(await guest.openReadable(object!.key)).toBeNull()
			await t.db.product.update({ where: { id: product.id }, data: { status: 'active' } })
			expect((await guest.openReadable(object!.key))?.contentType).toBe('image/png')
			await t.db.product.update({ where: { id: product.id }, data: { status: 'archived' } })
			expect(await guest.openReadable(object!.key)).toBeNull()
			// Another Store's shopper never reads it, whatever its products say.
			expect(await uploadsRepository(t.db, { kind: 'guest', storeId: otherAdmin.storeId, guestId: 'g' }, backend.storage).openReadable(object!.key)).toBeNull()
		})

		it('deletes the object and its record, with an audit row', async () => {
			const [object] = await repo(admin).storeAll([IMAGES.png])
			expect(await repo(admin).delete(object!.key)).toBe(true)
			expect(await t.db.uploadedObject.count({ where: { key: object!.key } })).toBe(0)
			expect(await backend.storage.get(object!.key)).toBeNull()
			expect(await t.db.auditEntry.count({ where: { action: 'upload.delete', detail: { contains: object!.key } } })).toBe(1)
		})
	})
})
