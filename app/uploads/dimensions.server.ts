import { imageSize } from 'image-size'

const MAX_SIDE = 100_000

/**
 * An image's pixel size from its bytes (image-size reads the header of every type uploads
 * accept, SVG from its width, height or viewBox), or null when it does not say.
 * Pages set width and height from it, so the layout does not shift while images load.
 */
export function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | null {
	try {
		const { width, height } = imageSize(bytes)
		const fits = (side: number | undefined): side is number => Number.isInteger(side) && (side as number) > 0 && (side as number) <= MAX_SIDE
		return fits(width) && fits(height) ? { width, height } : null
	} catch {
		return null
	}
}
