import { type AllowedImageType, isAllowedImageType } from './types'

// Loaded with the first upload, not at start (pages never need it).
let fileType: Promise<typeof import('file-type')> | undefined

/**
 * The file's type from its bytes (magic numbers via `file-type`), or null when it is
 * not an allowed image. SVG has no magic number: a document whose first element is
 * `<svg` (after an optional XML declaration, comments and whitespace) is treated as
 * SVG and must then pass the sanitiser.
 */
export async function sniffImageType(bytes: Uint8Array): Promise<AllowedImageType | null> {
	fileType ??= import('file-type')
	const detected = await (await fileType).fileTypeFromBuffer(bytes)
	if (detected) return isAllowedImageType(detected.mime) ? detected.mime : null
	return looksLikeSvg(bytes) ? 'image/svg+xml' : null
}

const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i

function looksLikeSvg(bytes: Uint8Array) {
	const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8')
	return SVG_START.test(head)
}
