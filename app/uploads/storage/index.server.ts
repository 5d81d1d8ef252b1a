import type { Config } from '../../config/env.server'
import { getConfig } from '../../config/env.server'
import { diskStorage } from './disk.server'
import { s3Storage } from './s3.server'
import type { ObjectStorage } from './storage'

export function createStorage(uploads: Config['uploads']): ObjectStorage {
	if (uploads.storage === 's3') {
		const { bucket, ...rest } = uploads.s3
		if (!bucket) throw new Error('UPLOAD_STORAGE=s3 needs S3_BUCKET')
		return s3Storage({ bucket, ...rest })
	}
	return diskStorage(uploads.dir)
}

let storage: ObjectStorage | undefined

/** The process's storage, from configuration, made on first use. */
export function getStorage(): ObjectStorage {
	storage ??= createStorage(getConfig().uploads)
	return storage
}
