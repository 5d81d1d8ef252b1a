import type sharpModule from 'sharp'
import { onFirstUse } from '../config/optional-packages.server'

const loadSharp = onFirstUse<typeof sharpModule>('sharp')

/**
 * Smaller copies of a product image for `srcset`, made on first request with sharp (libvips) and
 * kept in memory: a phone downloads a 320 or 640 px WebP instead of the full upload. Only the
 * widths of app/ui/image-sources.ts are made (the route refuses any other), never wider than the upload,
 * and only of raster types; SVG scales by itself and GIF may be animated, so both are served whole.
 * The upload was checked when it arrived (type from its bytes, size); decoding is still bounded.
 */
const RESIZABLE = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/avif'])

export const isResizable = (contentType: string) => RESIZABLE.has(contentType)

/** Pixels decoded at most: a 40-megapixel upload is far larger than any product photo needs. */
const MAX_INPUT_PIXELS = 40_000_000
/** What the kept copies may take together; the least recently used go first. */
const CACHE_BYTES = 24 * 1024 * 1024

const cache = new Map<string, Buffer>()
let cachedBytes = 0

function remember(id: string, bytes: Buffer) {
	if (bytes.byteLength > CACHE_BYTES / 4) return
	cache.set(id, bytes)
	cachedBytes += bytes.byteLength
	for (const [oldest, kept] of cache) {
		if (cachedBytes <= CACHE_BYTES) break
		cache.delete(oldest)
		cachedBytes -= kept.byteLength
	}
}

/** The copy of `key` at `width` (WebP), made from `original()` when it is not kept yet. */
export async function rendition(key: string, width: number, original: () => Promise<Buffer>) {
	const id = `${key}\u0000${width}`
	const kept = cache.get(id)
	if (kept) {
		// Most recently used last.
		cache.delete(id)
		cache.set(id, kept)
		return kept
	}
	const bytes = await loadSharp()(await original(), { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
		.rotate()
		.resize({ width, withoutEnlargement: true })
		.webp({ quality: 80 })
		.toBuffer()
	remember(id, bytes)
	return bytes
}
