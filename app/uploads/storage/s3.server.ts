import { onFirstUse } from '../../config/optional-packages.server'
import { assertObjectKey, type ObjectStorage } from './storage'

/** The AWS SDK, loaded when an S3 bucket is configured: a store on disk does not carry it. */
const awsS3 = onFirstUse<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3')

export type S3Options = {
	bucket: string
	endpoint?: string
	region: string
	accessKeyId?: string
	secretAccessKey?: string
	forcePathStyle: boolean
	/** How long to wait for a connection and for each request (the SDK tries each request 3 times). */
	timeouts?: { connectMs: number; requestMs: number }
}

/** A bucket that does not answer is unavailable: the upload answers 503 instead of hanging. */
const DEFAULT_TIMEOUTS = { connectMs: 5_000, requestMs: 30_000 }

/**
 * An S3-compatible bucket, what a deployment with several instances needs. Several
 * Store Runtimes may share one bucket: keys carry the Store, and ownership is checked
 * on the database record before this is called.
 */
export function s3Storage(options: S3Options): ObjectStorage {
	const { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } = awsS3()
	const client = s3Client(options)
	const Bucket = options.bucket
	return {
		kind: 's3',
		async put(key, body, contentType) {
			assertObjectKey(key)
			await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength }))
		},
		async get(key) {
			assertObjectKey(key)
			try {
				const object = await client.send(new GetObjectCommand({ Bucket, Key: key }))
				if (!object.Body) return null
				return { body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: object.ContentLength ?? 0 }
			} catch (error) {
				if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null
				throw error
			}
		},
		async delete(key) {
			assertObjectKey(key)
			await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
		},
	}
}

function s3Client(options: S3Options, maxAttempts?: number) {
	return new (awsS3().S3Client)({
		...(maxAttempts === undefined ? {} : { maxAttempts }),
		region: options.region,
		endpoint: options.endpoint,
		forcePathStyle: options.forcePathStyle,
		requestHandler: {
			connectionTimeout: (options.timeouts ?? DEFAULT_TIMEOUTS).connectMs,
			requestTimeout: (options.timeouts ?? DEFAULT_TIMEOUTS).requestMs,
			throwOnRequestTimeout: true,
		},
		credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
	})
}

/**
 * Readiness (app/health/readiness.server.ts): the bucket exists and these credentials may
 * reach it (HeadBucket), on a client of its own with no retries, cancelled by `signal`.
 */
export function s3BucketCheck(options: S3Options) {
	let client: ReturnType<typeof s3Client> | undefined
	return async (signal: AbortSignal) => {
		client ??= s3Client(options, 1)
		await client.send(new (awsS3().HeadBucketCommand)({ Bucket: options.bucket }), { abortSignal: signal })
	}
}
