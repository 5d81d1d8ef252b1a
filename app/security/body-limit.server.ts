/** Bodies read with a hard cap: forms, the auth endpoint, provider events. */

export class BodyTooLargeError extends Error {
	override name = 'BodyTooLargeError'
}

/**
 * The raw body, read with a hard cap whatever Content-Length says (it may be absent or
 * lie). Throws BodyTooLargeError as soon as the cap is passed, without reading further. The
 * stream is released, not cancelled: cancelling destroys Node's request, and with it the
 * connection, so the client would get a reset instead of its 413; the server drops the rest
 * of the body once the answer is sent (dropUnreadBodies).
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array> {
	if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw new BodyTooLargeError()
	if (!request.body) return new Uint8Array()
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > maxBytes) {
			reader.releaseLock()
			throw new BodyTooLargeError()
		}
		chunks.push(value)
	}
	return Buffer.concat(chunks)
}

/**
 * A body from Node's own request stream, with the same cap: refused at once when its declared
 * length passes it, and as soon as the bytes read do, without reading further (the server drops
 * the rest once the answer is sent: dropUnreadBodies).
 */
export function readNodeBodyWithin(
	stream: NodeJS.ReadableStream & { headers: Record<string, string | string[] | undefined> },
	maxBytes: number,
): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		if (Number(stream.headers['content-length'] ?? 0) > maxBytes) return reject(new BodyTooLargeError())
		const chunks: Buffer[] = []
		let size = 0
		const stop = (error: Error | null) => {
			stream.off('data', onData)
			stream.off('end', onEnd)
			stream.off('error', stop)
			stream.off('close', onClose)
			if (error) reject(error)
			else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
		}
		const onData = (chunk: Buffer) => {
			size += chunk.byteLength
			if (size > maxBytes) {
				stream.pause()
				return stop(new BodyTooLargeError())
			}
			chunks.push(chunk)
		}
		const onEnd = () => stop(null)
		const onClose = () => stop(new Error('the client closed the request before its body ended'))
		stream.on('data', onData)
		stream.on('end', onEnd)
		stream.on('error', stop)
		stream.on('close', onClose)
	})
}
