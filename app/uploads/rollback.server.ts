import { randomBytes } from 'node:crypto'
import { auditEntry } from '../audit/audit.server'
import type { Db } from '../data/db.server'
import type { AdminViewer } from '../data/viewer'
import { storageFailure } from './storage/failures'
import type { ObjectStorage } from './storage/storage'
import { log } from '../log/logger.server'

/** Keys named in the audit entry (its detail is capped); the log names them all. */
const LISTED_KEYS = 20

/**
 * Undoes an upload request that failed while writing [R34]. Removes every object it may have
 * written (a put that failed half-way may have left bytes, so its key is tried too), then
 * adds one `upload.failed` entry to the activity log saying what happened and naming any
 * object that could not be removed (a bucket that went away cannot be cleaned now; an
 * operator can). No row was written: rows and their entries come in one transaction after
 * every object is in place. Returns what to throw: a 507/503 StorageFailure when the
 * storage caused it, else the error itself.
 */
export async function undoUploadRequest({
	db,
	admin,
	storage,
	keys,
	files,
	error,
}: {
	db: Db
	admin: AdminViewer
	storage: ObjectStorage
	keys: string[]
	files: number
	error: unknown
}): Promise<unknown> {
	const removals = await Promise.allSettled(keys.map((key) => storage.delete(key)))
	const leftBehind = keys.filter((_key, index) => removals[index]?.status === 'rejected')
	if (leftBehind.length > 0) {
		log.error(`[uploads] could not remove ${leftBehind.length} object(s) of a failed upload request; remove by hand: ${leftBehind.join(' ')}`)
	}
	const failure = storageFailure(error)
	await auditEntry(db, admin, {
		action: 'upload.failed',
		targetType: 'upload-request',
		targetId: randomBytes(8).toString('hex'),
		detail: { code: failure?.code ?? 'UNEXPECTED', files, leftBehind: leftBehind.slice(0, LISTED_KEYS) },
	}).catch((auditError: unknown) => {
		log.error(`[uploads] a failed upload request could not be written to the activity log: ${(auditError as Error).name}`)
	})
	return failure ?? error
}
