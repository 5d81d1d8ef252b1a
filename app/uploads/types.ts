/**
 * What the store accepts as an upload: the image formats a storefront shows
 * (docs/decisions/013-uploads.md). Decided from the bytes; the declared type and the
 * file name are ignored.
 */
export const ALLOWED_IMAGE_TYPES = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'image/avif': 'avif',
	'image/svg+xml': 'svg',
} as const

export type AllowedImageType = keyof typeof ALLOWED_IMAGE_TYPES

export function isAllowedImageType(type: string): type is AllowedImageType {
	return Object.hasOwn(ALLOWED_IMAGE_TYPES, type)
}

/** Why a file was refused; each maps to a status in the upload route. */
export type UploadRefusal =
	| { reason: 'too-large'; message: string }
	| { reason: 'too-many-files'; message: string }
	| { reason: 'unsupported-type'; message: string }
	| { reason: 'risky-svg'; message: string }
	| { reason: 'malformed'; message: string }
