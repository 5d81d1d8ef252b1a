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
