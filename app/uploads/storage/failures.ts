import { UploadError } from '../intake.server'

/**
 * A storage failure in words an admin (or a client) can act on [R34]: 507 when the storage
 * is full, 503 with Retry-After when it cannot be written now (read-only, not permitted,
 * not answering). Everything else stays an unexpected error (500): guessing would hide bugs.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 30

const FULL = new Set(['ENOSPC', 'EDQUOT'])
/** Read-only, refused by the filesystem, or a bucket that cannot be reached. */
const UNAVAILABLE = new Set([
	'EROFS',
	'EACCES',
	'EPERM',
	'ECONNREFUSED',
	'ECONNRESET',
	'ETIMEDOUT',
	'EPIPE',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EAI_AGAIN',
	'ENOTFOUND',
])
/** The AWS SDK's names for a request that never got an answer in time. */
const TIMEOUTS = new Set(['TimeoutError', 'RequestTimeout'])
/** Answers of a bucket that refuses this store: wrong credentials, no such bucket (like EACCES on disk). */
const REFUSED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'NoSuchBucket'])

export class StorageFailure extends UploadError {
	override name = 'StorageFailure'
	constructor(kind: 'full' | 'unavailable', options: { cause: unknown }) {
		if (kind === 'full') {
			super(507, 'STORAGE_FULL', 'The upload storage is full: nothing from this request was kept. Free some space, then try again.')
		} else {
			super(
				503,
				'STORAGE_UNAVAILABLE',
				'The upload storage cannot be written right now: nothing from this request was kept. Try again in a little while.',
				false,
				{ 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
			)
		}
		this.cause = options.cause
	}
}

type Failure = { code?: unknown; name?: unknown; cause?: unknown; $metadata?: { httpStatusCode?: unknown } }

/** The StorageFailure `error` stands for, or null when it is not one. */
export function storageFailure(error: unknown): StorageFailure | null {
	if (error instanceof StorageFailure) return error
	const kind = classify(error, 0)
	return kind ? new StorageFailure(kind, { cause: error }) : null
}

function classify(error: unknown, depth: number): 'full' | 'unavailable' | null {
	if (typeof error !== 'object' || error === null || depth > 3) return null
	const { code, name, cause, $metadata } = error as Failure
	const status = typeof $metadata?.httpStatusCode === 'number' ? $metadata.httpStatusCode : 0
	if ((typeof code === 'string' && FULL.has(code)) || status === 507) return 'full'
	if (typeof code === 'string' && UNAVAILABLE.has(code)) return 'unavailable'
	if (typeof name === 'string' && (TIMEOUTS.has(name) || REFUSED.has(name))) return 'unavailable'
	if (status >= 500) return 'unavailable'
	// Network errors arrive wrapped (an AggregateError per address tried, or a cause).
	if (error instanceof AggregateError) {
		for (const inner of error.errors) {
			const kind = classify(inner, depth + 1)
			if (kind) return kind
		}
	}
	return classify(cause, depth + 1)
}
