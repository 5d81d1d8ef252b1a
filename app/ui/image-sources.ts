/** The widths the store makes smaller copies of a raster image at (`/media/<key>?w=<width>`). */
export const RENDITION_WIDTHS = [320, 640, 960, 1280] as const

/** Whether the upload `key` (its extension was set from the bytes at upload) has smaller copies. */
export const hasRenditions = (key: string) => /\.(png|jpe?g|webp|avif)$/.test(key)

/**
 * The `srcset` of an image: its smaller copies narrower than the upload, then the upload itself
 * at its own width; every copy when its width is not known. None for SVG (it scales) or GIF.
 */
export function srcSetOf(key: string, width: number | null) {
	if (!hasRenditions(key)) return undefined
	const widths = RENDITION_WIDTHS.filter((w) => width === null || w < width)
	const entries = widths.map((w) => `/media/${key}?w=${w} ${w}w`)
	if (width !== null) entries.push(`/media/${key} ${width}w`)
	return entries.length > 0 ? entries.join(', ') : undefined
}
