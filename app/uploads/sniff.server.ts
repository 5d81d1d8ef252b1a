import { fileTypeFromBuffer } from 'file-type'
import { type AllowedImageType, isAllowedImageType } from './types'

/**
 * The file's type from its bytes (magic numbers via `file-type`), or null when it is
 * not an allowed image. SVG has no magic number: a document whose first element is
 * `<svg` (after an optional XML declaration, comments and whitespace) is treated as
 * SVG and must then pass the sanitiser.
 */
export async function sniffImageType(bytes: Uint8Array): Promise<AllowedImageType | null> {
	const detected = await fileTypeFromBuffer(bytes)
	if (detected) return isAllowedImageType(detected.mime) ? detected.mime : null
	return looksLikeSvg(bytes) ? 'image/svg+xml' : null
}

const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i

function looksLikeSvg(bytes: Uint8Array) {
	const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8')
	return SVG_START.test(head)
}
