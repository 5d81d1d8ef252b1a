import { Readable, Transform } from 'node:stream'
import busboy from 'busboy'

/**
 * Streaming multipart intake for `POST /api/upload` and the admin upload form, with busboy:
 * parts named `file` only, limits enforced while the bytes arrive (per file, file count,
 * whole request), so an oversize or endless body is cut off with 413 without being held in
 * memory.
 */
export class UploadError extends Error {
	override name = 'UploadError'
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		/** Refused before any of the body was read: close the connection rather than read it. */
		readonly unread = false,
		/** Headers the answer carries (Retry-After when the storage is unavailable). */
		readonly headers: Record<string, string> = {},
	) {
		super(message)
	}
}

export type IntakeLimits = { maxFileBytes: number; maxFiles: number }

/** Multipart framing and headers on top of the files themselves. */
const OVERHEAD_BYTES = 64 * 1024

export function maxRequestBytes(limits: IntakeLimits) {
	return limits.maxFiles * (limits.maxFileBytes + OVERHEAD_BYTES)
}

/**
 * After a refusal the rest of the body is read and thrown away, up to `cap` bytes, so the
 * client reads the answer instead of a reset connection; past the cap (an endless or
 * abusive body) the connection is dropped. Nothing is kept either way.
 */
function discardRest(source: Readable, cap: number) {
	let discarded = 0
	source.on('data', (chunk: Buffer) => {
		discarded += chunk.length
		if (discarded > cap) source.destroy()
	})
	source.on('error', () => undefined)
	source.resume()
}

/**
 * A multipart form of short text fields and files (parts named `file`), for a form that sends
 * both, such as Store Admin's new product with its images. The same limits apply to the files;
 * fields are bounded in number and size. A file input left empty (no name, no bytes) is no file.
 */
export async function receiveForm(
	request: Request,
	limits: IntakeLimits & { maxFields: number; maxFieldBytes: number },
): Promise<{ fields: Array<[string, string]>; files: Buffer[] }> {
	return receiveMultipart(request, limits, { fields: true })
}

export async function receiveFiles(request: Request, limits: IntakeLimits): Promise<Buffer[]> {
	return (await receiveMultipart(request, { ...limits, maxFields: 0, maxFieldBytes: 0 }, { fields: false })).files
}

async function receiveMultipart(
	request: Request,
	limits: IntakeLimits & { maxFields: number; maxFieldBytes: number },
	accept: { fields: boolean },
): Promise<{ fields: Array<[string, string]>; files: Buffer[] }> {
	const type = request.headers.get('content-type') ?? ''
	if (!/^multipart\/form-data\s*;/i.test(type)) {
		throw new UploadError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data with one or more parts named "file".', true)
	}
	const maxTotal = maxRequestBytes(limits) + limits.maxFields * limits.maxFieldBytes
	if (Number(request.headers.get('content-length') ?? 0) > maxTotal) {
		throw new UploadError(413, 'REQUEST_TOO_LARGE', `An upload request may carry at most ${maxTotal} bytes.`, true)
	}
	if (!request.body) throw new UploadError(400, 'NO_FILES', 'No file was sent.')

	let parser: busboy.Busboy
	try {
		parser = busboy({
			headers: { 'content-type': type },
			limits: {
				fileSize: limits.maxFileBytes,
				files: limits.maxFiles,
				fields: limits.maxFields,
				fieldSize: limits.maxFieldBytes,
				// busboy says "partsLimit" once the count *reaches* the limit, so a request of exactly
				// maxFiles files would be refused: only a part past them is one too many.
				parts: limits.maxFiles + limits.maxFields + 1,
				headerPairs: 20,
			},
		})
	} catch {
		throw new UploadError(400, 'MALFORMED', 'The multipart body could not be read.')
	}

	const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream)
	let seen = 0
	const counter = new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			seen += chunk.length
			if (seen > maxTotal) {
				callback(new UploadError(413, 'REQUEST_TOO_LARGE', `An upload request may carry at most ${maxTotal} bytes.`))
				return
			}
			callback(null, chunk)
		},
	})

	return new Promise((resolve, reject) => {
		const files: Buffer[] = []
		const fields: Array<[string, string]> = []
		let failed = false
		const fail = (error: UploadError) => {
			if (failed) return
			failed = true
			parser.removeAllListeners('close')
			source.unpipe(counter)
			counter.destroy()
			discardRest(source, maxTotal)
			reject(error)
		}

		parser.on('file', (name, stream, info) => {
			if (name !== 'file') {
				stream.resume()
				fail(new UploadError(400, 'UNEXPECTED_PART', `Unexpected part: ${name.slice(0, 40)}. Send parts named "file".`))
				return
			}
			const chunks: Buffer[] = []
			stream.on('data', (chunk: Buffer) => chunks.push(chunk))
			stream.on('limit', () => fail(new UploadError(413, 'FILE_TOO_LARGE', `Each file may be at most ${limits.maxFileBytes} bytes.`)))
			stream.on('end', () => {
				const bytes = Buffer.concat(chunks)
				// What a browser sends for a file input left empty in a form of fields and files.
				if (accept.fields && !info.filename && bytes.length === 0) return
				if (!failed) files.push(bytes)
			})
		})
		parser.on('field', (name, value, info) => {
			if (!accept.fields) fail(new UploadError(400, 'UNEXPECTED_FIELD', `Unexpected field: ${name.slice(0, 40)}. Only files are accepted.`))
			else if (info.valueTruncated || info.nameTruncated) fail(new UploadError(413, 'FIELD_TOO_LARGE', 'A field of the form is too long.'))
			else fields.push([name, value])
		})
		parser.on('fieldsLimit', () =>
			fail(
				accept.fields
					? new UploadError(413, 'TOO_MANY_FIELDS', 'The form has too many fields.')
					: new UploadError(400, 'UNEXPECTED_FIELD', 'Only files are accepted.'),
			),
		)
		parser.on('filesLimit', () => fail(new UploadError(413, 'TOO_MANY_FILES', `At most ${limits.maxFiles} files per request.`)))
		parser.on('partsLimit', () => fail(new UploadError(413, 'TOO_MANY_FILES', `At most ${limits.maxFiles} files per request.`)))
		parser.on('error', () => fail(new UploadError(400, 'MALFORMED', 'The multipart body could not be read.')))
		counter.on('error', (error) => fail(error instanceof UploadError ? error : new UploadError(400, 'MALFORMED', 'The upload was interrupted.')))
		source.on('error', () => fail(new UploadError(400, 'MALFORMED', 'The upload was interrupted.')))
		parser.on('close', () => {
			if (failed) return
			if (files.length === 0 && !accept.fields) fail(new UploadError(400, 'NO_FILES', 'No file was sent.'))
			else resolve({ fields, files })
		})
		source.pipe(counter).pipe(parser)
	})
}
