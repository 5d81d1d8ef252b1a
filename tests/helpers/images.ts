/** Tiny but real image files, one per accepted type, for upload tests. */
const b64 = (text: string) => Buffer.from(text, 'base64')

export const IMAGES = {
	png: b64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
	gif: b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
	jpg: b64(
		'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
	),
	webp: b64('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA='),
	avif: Buffer.concat([
		Buffer.from([0, 0, 0, 0x1c]),
		Buffer.from('ftypavif', 'latin1'),
		Buffer.from([0, 0, 0, 0]),
		Buffer.from('avifmif1miaf', 'latin1'),
		Buffer.alloc(32),
	]),
	svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#2747c9"/></svg>'),
} as const

/** A PNG of about `bytes` bytes: the real 1x1 PNG followed by padding (file-type reads the head). */
export function pngOfSize(bytes: number) {
	return Buffer.concat([IMAGES.png, Buffer.alloc(Math.max(0, bytes - IMAGES.png.length))])
}

/** A multipart/form-data body built by hand, so tests control every byte and header. */
export function multipart(parts: Array<{ name: string; filename?: string; type?: string; body: Buffer | string }>) {
	const boundary = `----store-test-${Math.random().toString(16).slice(2)}`
	const chunks: Buffer[] = []
	for (const part of parts) {
		const disposition = part.filename !== undefined ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`
		chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`))
		if (part.type) chunks.push(Buffer.from(`Content-Type: ${part.type}\r\n`))
		chunks.push(Buffer.from('\r\n'), Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body), Buffer.from('\r\n'))
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`))
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}
