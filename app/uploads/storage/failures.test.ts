import { describe, expect, it } from 'vitest'
import { STORAGE_RETRY_AFTER_SECONDS, storageFailure } from './failures'

const systemError = (code: string) => Object.assign(new Error(`${code}: simulated`), { code, syscall: 'write' })

/** What the AWS SDK throws for an answer with this status (service errors carry `$metadata`). */
const serviceError = (name: string, httpStatusCode: number) =>
	Object.assign(new Error(name), { name, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode } })

describe('storage failures in words a client can act on [R34]', () => {
	it.each(['ENOSPC', 'EDQUOT'])('answers 507 STORAGE_FULL to %s, without Retry-After [R34]', (code) => {
		const failure = storageFailure(systemError(code))
		expect(failure).toMatchObject({ status: 507, code: 'STORAGE_FULL' })
		expect(failure?.message).toMatch(/full/)
		expect(failure?.headers).toEqual({})
	})

	it.each(['EROFS', 'EACCES', 'EPERM'])('answers 503 STORAGE_UNAVAILABLE with Retry-After to %s [R34]', (code) => {
		const failure = storageFailure(systemError(code))
		expect(failure).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' })
		expect(failure?.headers).toEqual({ 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) })
	})

	it.each([
		['a refused connection', systemError('ECONNREFUSED')],
		['a reset connection', systemError('ECONNRESET')],
		['a connection timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
		['a refused connection on every address', Object.assign(new AggregateError([systemError('ECONNREFUSED')]), { code: 'ECONNREFUSED' })],
		['a cause that is a refused connection', new Error('socket', { cause: systemError('ECONNREFUSED') })],
		['503 SlowDown', serviceError('SlowDown', 503)],
		['500 InternalError', serviceError('InternalError', 500)],
		['a 502 with no error body', serviceError('Unknown', 502)],
		['403 AccessDenied (credentials the bucket refuses)', serviceError('AccessDenied', 403)],
		['404 NoSuchBucket', serviceError('NoSuchBucket', 404)],
	])('answers 503 to an S3 bucket failing with %s [R34]', (_what, error) => {
		expect(storageFailure(error)).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' })
	})

	it('answers 507 to an S3-compatible store that says it is full [R34]', () => {
		expect(storageFailure(serviceError('XMinioStorageFull', 507))).toMatchObject({ status: 507, code: 'STORAGE_FULL' })
	})

	it('leaves anything else alone: a programmer error stays a 500', () => {
		expect(storageFailure(new TypeError('undefined is not a function'))).toBeNull()
		expect(storageFailure(systemError('ENOENT'))).toBeNull()
		expect(storageFailure('a string')).toBeNull()
		expect(storageFailure(serviceError('InvalidArgument', 400))).toBeNull()
	})
})
