import { createHash, randomBytes } from 'node:crypto'
import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import { type AdminViewer, isAdmin, type Viewer } from '../data/viewer'
import { UploadError } from './intake.server'
import { undoUploadRequest } from './rollback.server'
import { storageFailure } from './storage/failures'
import { sniffImageType } from './sniff.server'
import type { ObjectStorage } from './storage/storage'
import { checkSvg } from './svg.server'
import { dimensionsOf } from './dimensions.server'
import { ALLOWED_IMAGE_TYPES, type AllowedImageType } from './types'

export type StoredUpload = { key: string; url: string; contentType: string; size: number; width: number | null; height: number | null }

/** Where an object is served from: one path per key, checked on every read. */
export const mediaUrl = (key: string) => `/media/${key}`

type Checked = { bytes: Buffer; contentType: AllowedImageType }

/** The type from the bytes, and SVG sanitised; a refusal names the file by position only. */
async function check(bytes: Buffer, position: number): Promise<Checked> {
	const contentType = await sniffImageType(bytes)
	if (!contentType) {
		throw new UploadError(
			415,
			'UNSUPPORTED_TYPE',
			`File ${position} is not an accepted image (PNG, JPEG, GIF, WebP, AVIF or SVG), whatever its name or declared type.`,
		)
	}
	if (contentType !== 'image/svg+xml') return { bytes, contentType }
	const verdict = await checkSvg(bytes)
	if (!verdict.ok) throw new UploadError(415, 'RISKY_SVG', `File ${position}: ${verdict.message}`)
	return { bytes: Buffer.from(verdict.svg, 'utf8'), contentType }
}

/**
 * The uploads of the viewer's Store [R4, R33]. Every method finds the record with the
 * session's Store scope first; a key alone, however well formed, opens nothing.
 */
export function uploadsRepository(db: Db, viewer: Viewer, storage: ObjectStorage) {
	const scoped = (key: string) =>
		db.uploadedObject.findFirst({
			where: { key, storeId: viewer.storeId },
			select: { id: true, key: true, contentType: true, byteSize: true },
		})

	return {
		/**
		 * Checks every file first, then writes every object, then adds every row and its audit
		 * entry in one transaction: a request is stored whole or not at all [R34]. When a write
		 * or the transaction fails, what was written is removed (undoUploadRequest).
		 */
		/** The checks storeAll makes first (type from the bytes, size, SVG), without storing anything. */
		async checkAll(files: Buffer[]) {
			requireAdminViewer(viewer)
			for (const [index, bytes] of files.entries()) await check(bytes, index + 1)
		},

		async storeAll(files: Buffer[]): Promise<StoredUpload[]> {
			const admin = requireAdminViewer(viewer)
			const checked: Checked[] = []
			for (const [index, bytes] of files.entries()) checked.push(await check(bytes, index + 1))
			const objects = checked.map((file) => ({
				...file,
				key: `stores/${admin.storeId}/uploads/${randomBytes(16).toString('hex')}.${ALLOWED_IMAGE_TYPES[file.contentType]}`,
			}))
			const attempted: string[] = []
			try {
				for (const object of objects) {
					attempted.push(object.key)
					await storage.put(object.key, object.bytes, object.contentType)
				}
				await db.$transaction(async (tx) => {
					for (const { key, bytes, contentType } of objects) {
						const row = await tx.uploadedObject.create({
							data: {
								storeId: admin.storeId,
								key,
								contentType,
								byteSize: bytes.byteLength,
								sha256: createHash('sha256').update(bytes).digest('hex'),
								uploadedBy: admin.userId,
							},
							select: { id: true },
						})
						await auditEntry(tx, admin, {
							action: 'upload.create',
							targetType: 'upload',
							targetId: row.id,
							detail: { key, contentType, size: bytes.byteLength },
						})
					}
				})
			} catch (error) {
				throw await undoUploadRequest({ db, admin, storage, keys: attempted, files: objects.length, error })
			}
			return objects.map(({ key, bytes, contentType }) => {
				const size = dimensionsOf(bytes)
				return { key, url: mediaUrl(key), contentType, size: bytes.byteLength, width: size?.width ?? null, height: size?.height ?? null }
			})
		},

		/** The object when this viewer may read it, else null (404: existence is not revealed). */
		async openReadable(key: string) {
			const row = await scoped(key)
			if (!row) return null
			if (!isAdmin(viewer) && !(await isShownOnStorefront(db, viewer.storeId, row.key))) return null
			const object = await storage.get(row.key)
			return object ? { ...object, contentType: row.contentType, public: !isAdmin(viewer) } : null
		},

		async delete(key: string) {
			const admin = requireAdminViewer(viewer)
			const row = await scoped(key)
			if (!row) return false
			// [R120] Deleting the logo's image would leave the header pointing at nothing.
			if (await db.store.findFirst({ where: { id: admin.storeId, logoKey: row.key }, select: { id: true } })) {
				throw new UploadError(409, 'IN_USE_AS_LOGO', "This image is the store's logo: remove it as the logo in Store profile first.")
			}
			// The object goes first (deleting a missing one is no error): a storage that cannot be
			// changed now leaves the row and the file as they were, with a clear refusal; a row
			// whose object is gone is left only by a failed commit, and a retry completes it.
			try {
				await storage.delete(row.key)
			} catch (error) {
				const failure = storageFailure(error)
				if (!failure) throw error
				throw new UploadError(
					failure.status,
					failure.code,
					'The upload storage cannot be changed right now: the file was not removed. Try again in a little while.',
					false,
					failure.headers,
				)
			}
			await db.$transaction(async (tx) => {
				await tx.uploadedObject.delete({ where: { id: row.id } })
				await auditEntry(tx, admin, { action: 'upload.delete', targetType: 'upload', targetId: row.id, detail: { key } })
			})
			return true
		},

		list() {
			requireAdminViewer(viewer)
			return db.uploadedObject.findMany({
				where: { storeId: viewer.storeId },
				orderBy: { createdAt: 'desc' },
				take: 200,
				select: { key: true, contentType: true, byteSize: true, createdAt: true },
			})
		},
	}
}

function requireAdminViewer(viewer: Viewer): AdminViewer {
	// Routes check this with requireAdmin; the repository refuses on its own too.
	if (!isAdmin(viewer)) throw new Error('Only a Store Admin may change uploads')
	return viewer
}

/** Whether shoppers may see the object: the Store's logo [R120], or in the gallery of an active Product of this Store. */
async function isShownOnStorefront(db: Db, storeId: string, key: string): Promise<boolean> {
	if (await db.store.findFirst({ where: { id: storeId, logoKey: key }, select: { id: true } })) return true
	const product = await db.product.findFirst({
		where: { storeId, status: 'active', OR: [{ imageKey: key }, { images: { some: { key } } }] },
		select: { id: true },
	})
	return product !== null
}
