/**
 * Where uploaded bytes live: one small interface, two backends, chosen by
 * configuration (UPLOAD_STORAGE). Neither backend authorises anything: callers look up
 * the object's record with the session's Store scope first [R33].
 */
export type StoredObject = { body: ReadableStream<Uint8Array>; size: number }

export interface ObjectStorage {
	readonly kind: 'disk' | 's3'
	put(key: string, body: Uint8Array, contentType: string): Promise<void>
	get(key: string): Promise<StoredObject | null>
	delete(key: string): Promise<void>
}

/** Keys the store generates, and the only ones a backend will touch. */
export const OBJECT_KEY = /^stores\/[A-Za-z0-9_-]{1,64}\/uploads\/[0-9a-f]{32}\.(png|jpg|gif|webp|avif|svg)$/

export function assertObjectKey(key: string) {
	if (!OBJECT_KEY.test(key)) throw new Error('Refusing an object key the store did not generate')
}
